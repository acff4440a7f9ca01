/// A track's language as the file stores it, and its English name where it is a common code.
///
/// Self-contained on purpose (a small table, no locale data), so that it can later be merged with
/// the chapters' language type. Codes are ISO 639-2 (both the bibliographic and the terminology
/// form, `fre` and `fra`) and ISO 639-1 (`fr`); a region after a hyphen (`en-US`) is ignored for
/// the name. A missing or empty code is `und`.
public struct TrackLanguage: Sendable, Equatable, Hashable, Codable {
    /// The code as stored in the file, or `und` when absent. Only ASCII letters, digits and `-`
    /// are kept (at most 35 of them, the longest sensible BCP 47 tag), so it is safe in a file name.
    public let code: String
    /// The English name of the language, e.g. `French`; nil for a code not in the table.
    public let englishName: String?

    /// - Parameter stored: the stream's `language` tag, as libavformat gives it.
    public init(stored: String?) {
        let cleaned = String(String.UnicodeScalarView((stored ?? "").unicodeScalars.filter {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-")
        }).prefix(35))
        let code = cleaned.isEmpty ? "und" : cleaned
        self.code = code
        let base = code.split(separator: "-", maxSplits: 1).first.map(String.init) ?? code
        self.englishName = TrackLanguage.names[base.lowercased()]
    }

    /// English names by code: ISO 639-2/B, 639-2/T and 639-1 spellings of the common languages,
    /// and the special codes `und`, `mul`, `zxx`, `mis`.
    static let names: [String: String] = {
        var table: [String: String] = [:]
        for (codes, name) in rows {
            for code in codes.split(separator: " ") { table[String(code)] = name }
        }
        return table
    }()

    /// Space-separated codes (639-2/T, 639-2/B where it differs, 639-1) → name.
    private static let rows: [(String, String)] = [
        ("ara ar", "Arabic"), ("bul bg", "Bulgarian"), ("cat ca", "Catalan"),
        ("ces cze cs", "Czech"), ("cym wel cy", "Welsh"), ("dan da", "Danish"),
        ("deu ger de", "German"), ("ell gre el", "Greek"), ("eng en", "English"),
        ("est et", "Estonian"), ("eus baq eu", "Basque"), ("fas per fa", "Persian"),
        ("fin fi", "Finnish"), ("fil", "Filipino"), ("fra fre fr", "French"),
        ("gle ga", "Irish"), ("glg gl", "Galician"), ("heb he", "Hebrew"),
        ("hin hi", "Hindi"), ("hrv hr", "Croatian"), ("hun hu", "Hungarian"),
        ("hye arm hy", "Armenian"), ("ind id", "Indonesian"), ("isl ice is", "Icelandic"),
        ("ita it", "Italian"), ("jpn ja", "Japanese"), ("kat geo ka", "Georgian"),
        ("kaz kk", "Kazakh"), ("kor ko", "Korean"), ("lat la", "Latin"),
        ("lav lv", "Latvian"), ("lit lt", "Lithuanian"), ("mkd mac mk", "Macedonian"),
        ("msa may ms", "Malay"), ("mlt mt", "Maltese"), ("nld dut nl", "Dutch"),
        ("nor no", "Norwegian"), ("nob nb", "Norwegian Bokmål"), ("nno nn", "Norwegian Nynorsk"),
        ("pol pl", "Polish"), ("por pt", "Portuguese"), ("ron rum ro", "Romanian"),
        ("rus ru", "Russian"), ("slk slo sk", "Slovak"), ("slv sl", "Slovenian"),
        ("spa es", "Spanish"), ("sqi alb sq", "Albanian"), ("srp sr", "Serbian"),
        ("swe sv", "Swedish"), ("swa sw", "Swahili"), ("tam ta", "Tamil"),
        ("tel te", "Telugu"), ("tha th", "Thai"), ("tur tr", "Turkish"),
        ("ukr uk", "Ukrainian"), ("urd ur", "Urdu"), ("vie vi", "Vietnamese"),
        ("zho chi zh", "Chinese"), ("yue", "Cantonese"), ("ben bn", "Bengali"),
        ("afr af", "Afrikaans"), ("bos bs", "Bosnian"), ("kur ku", "Kurdish"),
        ("und", "Undetermined"), ("mul", "Multiple languages"), ("zxx", "No linguistic content"),
        ("mis", "Uncoded languages"),
    ]
}
