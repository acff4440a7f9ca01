import CTesseract
import Glibc
import Synchronization

/// Reads lines of text with Tesseract's LSTM models: the one owner of a `TessBaseAPI` initialised
/// for one language, freed in `deinit`. One reader per thread (an API is not shared).
final class TesseractReader {
    private let api: OpaquePointer
    let language: String
    /// The resolution Tesseract is told the pictures have: the lines are scaled to the size its
    /// models read best, whatever the disc's.
    static let resolution: Int32 = 300

    /// Loads `language`'s data (`TextLanguages.dataName`).
    /// The corresponding C functions are `TessBaseAPICreate` and `TessBaseAPIInit2`.
    /// - Throws: `MediaError.unsupported` when the library or the data cannot be loaded.
    init(language: String) throws {
        guard ctess_load() != 0 else {
            throw MediaError.unsupported(reason: "libtesseract cannot be loaded: \(TextLanguages.libraryMissing ?? "")")
        }
        guard let api = ctess_create() else {
            throw MediaError.library(function: "TessBaseAPICreate", code: -1, message: "out of memory")
        }
        // Its complaints (an unset resolution, empty pages) would go to stderr, the daemon's log.
        _ = ctess_set_variable(api, "debug_file", "/dev/null")
        guard ctess_init_lstm(api, TextLanguages.dataFolder, language) == 0 else {
            ctess_delete(api)
            throw MediaError.unsupported(reason: "Tesseract cannot load its \(language) data from \(TextLanguages.dataFolder)")
        }
        self.api = api
        self.language = language
        ctess_set_page_seg_mode(api, PSM_SINGLE_LINE)
        // A line it reads with little confidence it would read again inverted, in case it is light
        // on dark: the lines it is given are always dark on light.
        _ = ctess_set_variable(api, "tessedit_do_invert", "0")
    }

    /// The text of one line, spaces as Tesseract puts them, without its line end; empty where it
    /// reads nothing. The corresponding C functions are `TessBaseAPISetImage` and
    /// `TessBaseAPIGetUTF8Text`.
    func read(_ line: GrayImage) -> String {
        PreparedDump.shared?.write(line, language: language, pageSegmentation: Int(PSM_SINGLE_LINE.rawValue),
                                   resolution: Int(Self.resolution))
        line.pixels.withUnsafeBufferPointer { pixels in
            ctess_set_image(api, pixels.baseAddress, Int32(line.width), Int32(line.height), 1, Int32(line.width))
        }
        ctess_set_source_resolution(api, Self.resolution)
        // On this thread (the setting is the calling thread's): the line is read on it alone.
        ctess_single_thread()
        guard let text = ctess_get_utf8_text(api) else { return "" }
        defer { ctess_delete_text(text) }
        ctess_clear(api)
        return String(cString: text).trimmingSpaces.description
    }

    deinit {
        ctess_end(api)
        ctess_delete(api)
    }
}

/// Every picture given to Tesseract, written out where `MEDIAFS_OCR_DUMP` names a folder: an 8-bit
/// PGM per call (`000001.pgm`, …) and a line per call in `calls.tsv` (file, language, page
/// segmentation mode, resolution). The bench's OCR floor reads them with libtesseract alone.
final class PreparedDump: Sendable {
    static let shared: PreparedDump? = getenv("MEDIAFS_OCR_DUMP").map { PreparedDump(folder: String(cString: $0)) }
    private let folder: String
    private let count = Mutex(0)

    private init(folder: String) { self.folder = folder }

    func write(_ image: GrayImage, language: String, pageSegmentation: Int, resolution: Int) {
        count.withLock { number in
            number += 1
            let name = ClockText.padded(number, 6) + ".pgm"
            let header = Array("P5\n\(image.width) \(image.height)\n255\n".utf8)
            write(header + image.pixels, to: "\(folder)/\(name)", append: false)
            write(Array("\(name)\t\(language)\t\(pageSegmentation)\t\(resolution)\n".utf8), to: "\(folder)/calls.tsv", append: true)
        }
    }

    private func write(_ bytes: [UInt8], to path: String, append: Bool) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
