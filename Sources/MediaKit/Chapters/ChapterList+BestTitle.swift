extension ChapterList.Title {
    /// The title's language codes, parsed; codes that cannot be parsed are left out.
    var languageCodes: [LanguageCode] { languages.compactMap(LanguageCode.init) }

    /// True when the title names no language, or only undetermined ones (`und`, `mul`, `zxx`).
    var hasNoLanguage: Bool { languageCodes.allSatisfy(\.isUndetermined) }
}

extension ChapterList.Chapter {
    /// The title to show to a reader who prefers `preferred` (BCP-47 tags or ISO 639 codes, most
    /// preferred first), chosen like AVFoundation's
    /// `chapterMetadataGroups(bestMatchingPreferredLanguages:)`:
    ///
    /// 1. for each preferred language in order, a title in exactly that language and region or
    ///    script (`fr-CA` for `fr-CA`), else a title in that language (`fre`, `fr-FR` for `fr-CA`);
    /// 2. else a title with no language or an undetermined one (`und`);
    /// 3. else the first title.
    ///
    /// Returns nil only for a chapter without titles. The title's `language` is its code as stored.
    public func bestTitle(preferred: [String]) -> ChapterList.Title? {
        ChapterList.bestTitle(among: titles, preferred: preferred)
    }
}

extension ChapterList.Edition {
    /// The edition's name to show, chosen as `Chapter.bestTitle(preferred:)` chooses a title.
    public func bestName(preferred: [String]) -> ChapterList.Title? {
        ChapterList.bestTitle(among: names, preferred: preferred)
    }
}

extension ChapterList {
    static func bestTitle(among titles: [Title], preferred: [String]) -> Title? {
        for wanted in preferred.compactMap(LanguageCode.init) {
            if let exact = titles.first(where: { $0.languageCodes.contains(where: wanted.matchesExactly) }) {
                return exact
            }
            if let same = titles.first(where: { $0.languageCodes.contains(where: wanted.matches) }) {
                return same
            }
        }
        return titles.first(where: \.hasNoLanguage) ?? titles.first
    }
}
