import CTesseract
import Glibc

/// Which languages Tesseract can read here: a picture subtitle track is read into text only in a
/// language whose data (`tesseract-ocr-LANG`, `LANG.traineddata`) is installed.
public enum TextLanguages {
    /// Tesseract's name for the data of a stream's stored language code (`deu` for `ger`, `de` or
    /// `deu`), nil where the language is undetermined or its data is not installed. Whether
    /// libtesseract itself loads is known at the first reading (`libraryMissing`): a listing does
    /// not load it.
    public static func dataName(forStored code: String) -> String? {
        guard let language = LanguageCode(code), !language.isUndetermined else { return nil }
        let name = LanguageTable.byCode[language.language]?.terminology ?? language.language
        return installed.contains(name) ? name : nil
    }

    /// The folder Tesseract reads its data from: `TESSDATA_PREFIX` where set (as libtesseract
    /// reads it), else Debian's.
    public static var dataFolder: String {
        if let prefix = getenv("TESSDATA_PREFIX").map({ String(cString: $0) }), !prefix.isEmpty {
            return prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        }
        return "/usr/share/tesseract-ocr/5/tessdata"
    }

    /// Why libtesseract (libtesseract5) cannot be loaded, or nil where it can; asks for it to be
    /// loaded (once per process).
    public static var libraryMissing: String? {
        guard ctess_load() == 0 else { return nil }
        return ctess_load_error().map { String(cString: $0) } ?? "unknown"
    }

    /// The languages whose data is installed, read once per process (a package installed while a
    /// mount runs is seen at the next).
    static let installed: Set<String> = {
        guard let folder = opendir(dataFolder) else { return [] }
        defer { closedir(folder) }
        var names: Set<String> = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".traineddata"), name != "osd.traineddata" {
                names.insert(String(name.dropLast(".traineddata".count)))
            }
        }
        return names
    }()
}
