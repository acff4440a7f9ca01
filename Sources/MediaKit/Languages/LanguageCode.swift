/// A language code in any of the forms media files and locales use, normalised so that they can
/// be compared: ISO 639-1 (`fr`), ISO 639-2/B (`fre`), ISO 639-2/T (`fra`), BCP-47 (`fr-CA`,
/// `zh-Hans`) and POSIX locale names (`fr_FR.UTF-8`).
///
/// `fre`, `fra`, `fr`, `fr-FR` and `fr-CA` all have the language `fr`; `ger`, `deu` and `de` have
/// `de`; `chi`, `zho` and `zh-Hans` have `zh`.
public struct LanguageCode: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code as given.
    public let raw: String
    /// The primary language, canonical: the ISO 639-1 code where the language has one, else the
    /// ISO 639-2/T code, lower case (`und` for an undetermined language).
    public let language: String
    /// The ISO 15924 script, title case (`Hans`), from the code or implied by a Chinese region
    /// (TW, HK, MO: `Hant`; CN, SG, MY: `Hans`).
    public let script: String?
    /// The region, upper case (`FR`, `419`).
    public let region: String?

    /// Parses `code`; nil when it is empty or has no usable language subtag (`C`, `POSIX`, `*`).
    public init?(_ code: String) {
        var text = Substring(code.trimmingSpaces)
        // POSIX locale names: drop the codeset and the modifier (fr_FR.UTF-8@euro).
        if let cut = text.firstIndex(where: { $0 == "." || $0 == "@" }) { text = text[..<cut] }
        let subtags = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = subtags.first?.lowercased(), (2...8).contains(first.count),
              first.allSatisfy({ $0.isASCII && $0.isLetter }), first != "posix" else { return nil }
        var script: String?
        var region: String?
        for subtag in subtags.dropFirst() {
            if subtag.count == 4, subtag.allSatisfy({ $0.isASCII && $0.isLetter }), script == nil, region == nil {
                script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if region == nil, (subtag.count == 2 && subtag.allSatisfy({ $0.isASCII && $0.isLetter }))
                        || (subtag.count == 3 && subtag.allSatisfy({ $0.isASCII && $0.isNumber })) {
                region = subtag.uppercased()
            } else if subtag.count == 1 {
                break  // an extension or private-use part: nothing after it is script or region
            }
        }
        let language = LanguageCode.canonical(first)
        if language == "zh", script == nil, let region {
            if ["TW", "HK", "MO"].contains(region) { script = "Hant" }
            if ["CN", "SG", "MY"].contains(region) { script = "Hans" }
        }
        self.raw = code
        self.language = language
        self.script = script
        self.region = region
    }

    public var description: String {
        [language, script, region].compactMap { $0 }.joined(separator: "-")
    }

    /// True for codes that name no particular language: `und` (undetermined), `mul` (several),
    /// `zxx` (no linguistic content), `mis` (uncoded).
    public var isUndetermined: Bool { ["und", "mul", "zxx", "mis"].contains(language) }

    /// The same language: equal primary languages, and scripts that do not differ where both are
    /// known (`zh-Hans` does not match `zh-Hant`, but both match `chi`). Undetermined codes
    /// match nothing.
    public func matches(_ other: LanguageCode) -> Bool {
        guard !isUndetermined, !other.isUndetermined, language == other.language else { return false }
        if let script, let otherScript = other.script, script != otherScript { return false }
        return true
    }

    /// The same language, script and region, where this code names a script or a region
    /// (`fr-CA` is an exact match for `fre-CA` or `fr_CA`; a plain `fr` is never exact).
    public func matchesExactly(_ other: LanguageCode) -> Bool {
        guard script != nil || region != nil, matches(other) else { return false }
        return script == other.script && region == other.region
    }
}

extension LanguageCode {
    /// The language's name in English (`eng`, `en`, `en-GB` → "English"); nil for languages not in
    /// the table of common ones.
    public var englishName: String? { LanguageTable.byCode[language]?.name }

    /// The language whose English name is `name`, case aside (`French`, `english`), from the
    /// table of common languages; nil for a name not in it. For telling, in free text such as a
    /// track's title, a word that names a language.
    public static func named(_ name: String) -> LanguageCode? {
        let folded = name.lowercased()
        guard let entry = LanguageTable.entries.first(where: { $0.name.lowercased() == folded }) else { return nil }
        return LanguageCode(entry.canonical)
    }

    /// The ISO 639-2/T code (`fra` for `fr`, `fre`, `fr-FR`); the three-letter code where the table
    /// does not know the language and the code is one.
    public var iso639_2T: String? {
        LanguageTable.byCode[language]?.terminology ?? (language.count == 3 ? language : nil)
    }

    /// The ISO 639-2/B code (`fre` for French), which Matroska's ChapLanguage and track languages use.
    public var iso639_2B: String? {
        LanguageTable.byCode[language].map { $0.bibliographic ?? $0.terminology } ?? (language.count == 3 ? language : nil)
    }

    /// The ISO 639-1 code (`fr`); nil for languages that have none.
    public var iso639_1: String? { language.count == 2 ? language : nil }

    /// `code` in its canonical form: the ISO 639-1 code where the table knows one, else the code.
    static func canonical(_ code: String) -> String {
        LanguageTable.byCode[code]?.canonical ?? code
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines (Foundation-free).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
