import MediaKit

/// A track's title as it goes into a sidecar's name, before the language (`Film.Kino.ger.srt`),
/// kept readable where it is safe for every reader and cleaned where it is not:
///
/// - `.` separates the parts of the name for every reader: it becomes a space; `/` and control
///   characters are made safe as in every name (`FileNameText.safe`).
/// - Words that say what the name says anyway are dropped: the track's language (its name and
///   codes), and the flags (`forced`, `foreign`, `default`, `sdh`, `cc`, `hi`), so `English
///   (Forced)` on a forced English track is no title at all. Jellyfin takes any part that
///   *contains* `default`, `forced` or `foreign` for a flag, so such words go whatever they are.
/// - Kodi splits a name at spaces, dots and hyphens and takes the first word that is a language
///   code or an English language name for the language, before ours: a title with such a word
///   (`Latin American`: Latin) is written with `_` between its words, which Kodi does not split.
enum SidecarTitle {
    /// Words dropped whatever their case (after surrounding punctuation is taken off).
    static let flagWords: Set<String> = ["forced", "foreign", "default", "sdh", "cc", "hi", "hoh", "none"]
    /// Parts Jellyfin takes for a flag when a part contains them.
    static let flagFragments = ["default", "forced", "foreign"]

    /// The title for `title`, on a track whose language is `language` (nil when undetermined),
    /// in at most `maxBytes` bytes of UTF-8 (cut after a whole character, with `…`); nil when
    /// nothing is left.
    static func make(_ title: String?, language: LanguageCode?, maxBytes: Int) -> String? {
        guard let title, maxBytes > 0 else { return nil }
        let spaced = String(String.UnicodeScalarView(title.unicodeScalars.map { $0 == "." ? " " : $0 }))
        let words = FileNameText.safe(spaced, maxBytes: Int.max).split(separator: " ").map(String.init)
        let kept = words.filter { word in
            let bare = bareWord(word)
            // Brackets and dashes left alone once their words are gone; other signs (`&`) stay.
            guard !bare.isEmpty else { return !word.unicodeScalars.allSatisfy { "()[]{}<>-–—_,;:".unicodeScalars.contains($0) } }
            let folded = bare.lowercased()
            if flagWords.contains(folded) || flagFragments.contains(where: folded.contains) { return false }
            if let language, names(language).contains(folded) { return false }
            return true
        }
        guard kept.contains(where: { !bareWord($0).isEmpty }) else { return nil }
        let separator = kept.contains(where: { namesALanguage(bareWord($0)) }) ? "_" : " "
        let text = FileNameText.truncated(kept.joined(separator: separator), toBytes: maxBytes, ellipsis: "…")
        return text.isEmpty || text == "…" ? nil : text
    }

    /// `word` without the punctuation around it (`(Forced)` → `Forced`).
    static func bareWord(_ word: String) -> String {
        let scalars = word.unicodeScalars
        guard let first = scalars.firstIndex(where: isWordScalar), let last = scalars.lastIndex(where: isWordScalar) else {
            return ""
        }
        return String(scalars[first...last])
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// The ways `language` is written: its codes and its English name, lower case.
    private static func names(_ language: LanguageCode) -> Set<String> {
        Set([language.language, language.iso639_2B, language.iso639_2T, language.englishName?.lowercased()].compactMap { $0 })
    }

    /// Whether Kodi would read `word` as a language: a code of the language table (two or three
    /// letters) or an English language name.
    static func namesALanguage(_ word: String) -> Bool {
        guard word.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return false }
        if (2...3).contains(word.count), LanguageCode(word)?.englishName != nil { return true }
        return LanguageCode.named(word) != nil
    }
}
