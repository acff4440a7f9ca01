import MediaKit

/// The language part of a sidecar subtitle's name (`Film.ger.srt`): the code every reader reads.
///
/// ISO 639-2/B where the language has one (`ger`, `fre`, `dut`, `chi`), else ISO 639-2 (`eng`,
/// `spa`): Plex documents 639-1 and 639-2/B; Kodi's `CLangCodeExpander` takes a three-letter
/// code only when it is 639-2/B (or a country code); Jellyfin 10.9–10.11 find a name's language
/// by any of 639-1, 639-2/B and 639-2/T; mpv 0.35 takes the last dot-part of two or three
/// letters as it is. 639-1 is read by all but not every language has one. A region or script
/// is dropped (`pt-BR` is `por`): as a separate part Kodi reads a region as a language (`BR` is
/// Breton), and mpv 0.35 reads no language from `pt-BR`.
enum SidecarLanguage {
    /// The code for a track stored with `stored` (the stream's `language` tag); nil when it names
    /// no language: missing, `und`, `mul`, `zxx`, `mis`, or not a code of two or three letters.
    static func code(stored: String?) -> String? {
        guard let stored, let language = LanguageCode(stored), !language.isUndetermined else { return nil }
        if let bibliographic = language.iso639_2B { return bibliographic }
        return language.language.count == 2 ? language.language : nil
    }
}
