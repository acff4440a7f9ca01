import MediaKit

/// A track's language as the file stores it, and its English name where it is a common code.
///
/// Names come from `LanguageCode`'s table: ISO 639-2 (both the bibliographic and the terminology
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
        // The one table of language names (`LanguageCode`, shared with chapter titles).
        self.englishName = LanguageCode(base.lowercased())?.englishName
    }
}
