extension ChapterList.Title {
    /// The title's language codes, parsed; codes that cannot be parsed are left out.
    var languageCodes: [LanguageCode] { languages.compactMap(LanguageCode.init) }

    /// True when the title names no language, or only undetermined ones (`und`, `mul`, `zxx`).
    var hasNoLanguage: Bool { languageCodes.allSatisfy(\.isUndetermined) }

    /// The title's codes for `wanted`'s language taken together: a title stored as `zh-Hans`
    /// and `chi` is in Simplified Chinese, not in any Chinese. Nil if no code has that language.
    private func merged(for wanted: LanguageCode) -> (script: String?, region: String?)? {
        let same = languageCodes.filter { $0.language == wanted.language && !$0.isUndetermined }
        guard !same.isEmpty else { return nil }
        return (same.lazy.compactMap(\.script).first, same.lazy.compactMap(\.region).first)
    }

    /// In `wanted`'s language, with no script that differs from a script `wanted` names.
    func isIn(_ wanted: LanguageCode) -> Bool {
        guard !wanted.isUndetermined, let code = merged(for: wanted) else { return false }
        if let script = wanted.script, let own = code.script, script != own { return false }
        return true
    }

    /// In exactly `wanted`'s language, script and region, where `wanted` names a script or region.
    func isExactly(_ wanted: LanguageCode) -> Bool {
        guard wanted.script != nil || wanted.region != nil, isIn(wanted), let code = merged(for: wanted) else { return false }
        return code.script == wanted.script && code.region == wanted.region
    }
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
            if let exact = titles.first(where: { $0.isExactly(wanted) }) { return exact }
            if let same = titles.first(where: { $0.isIn(wanted) }) { return same }
        }
        return titles.first(where: \.hasNoLanguage) ?? titles.first
    }
}
