@testable import MediaKit
@testable import MediaTree
import Testing

/// Sidecar subtitle names and the server layout's other names, against the readers' rules
/// (Docs/LAYOUT.md, "Which reads which").
@Suite struct SidecarNamingTests {
    func stream(_ index: Int, _ codec: String?, language: String? = nil, title: String? = nil,
                disposition: [String] = []) -> MediaInfo.Stream {
        MediaInfo.Stream(index: index, kind: .subtitle, codec: codec, language: language, title: title,
                         disposition: disposition, tags: [:])
    }

    func sidecars(_ streams: [MediaInfo.Stream], base: Int = 4) -> SidecarSubtitles {
        let video = MediaInfo.Stream(index: 0, kind: .video, codec: "h264", width: 1920, height: 1080, disposition: [], tags: [:])
        return SidecarSubtitles(info: MediaInfo(container: .init(format: "matroska,webm", size: 1), streams: [video] + streams,
                                                chapters: [], tags: [:]),
                                baseNameBytes: base, readable: { _ in false })
    }

    /// The film of the issue: languages, forced, SDH, a default, two of one language with titles,
    /// ASS, PGS and DVD subtitles, a codec without a sidecar form, a third untitled English. A
    /// language's only track takes no title.
    @Test func aFilmWithEveryKind() {
        let plan = sidecars([
            stream(2, "subrip", language: "eng", disposition: ["default"]),
            stream(3, "subrip", language: "eng", title: "English (Forced)", disposition: ["forced"]),
            stream(4, "subrip", language: "eng", title: "English SDH", disposition: ["hearing_impaired"]),
            stream(5, "subrip", language: "ger", title: "Kino"),
            stream(6, "subrip", language: "deu", title: "Kommentar"),
            stream(7, "ass", language: "fre", title: "Français", disposition: ["forced"]),
            stream(8, "hdmv_pgs_subtitle", language: "und"),
            stream(9, "dvd_subtitle", language: "spa"),
            stream(10, "eia_608", language: "eng"),
            stream(11, "subrip", language: "eng"),
        ])
        #expect(plan.files.map(\.suffix) == [
            ".eng.srt", ".eng.forced.srt", ".eng.sdh.srt", ".ger.srt", ".Kommentar.ger.srt",
            ".fre.forced.ass", ".sup", ".spa.idx", ".spa.sub", ".Track 10.eng.srt",
        ])
        #expect(plan.files.map(\.streamIndex) == [2, 3, 4, 5, 6, 7, 8, 9, 9, 11])
        #expect(plan.files.map(\.output) == [.subtitleSRT, .subtitleSRT, .subtitleSRT, .subtitleSRT, .subtitleSRT,
                                             .subtitleASS, .bitmapSUP, .vobSubIndex, .vobSubPictures, .subtitleSRT])
        #expect(plan.files.map(\.storedLanguage) == ["eng", "eng", "eng", "ger", "deu", "fre", "und", "spa", "spa", "eng"])
        #expect(plan.skipped.map(\.streamIndex) == [10])
    }

    /// mpv's exact mode loads `Film.LANG.srt`: one plain name per language with a track that is
    /// neither forced nor SDH, the first; a language with only flagged tracks has none.
    @Test func onePlainNamePerLanguage() {
        let plan = sidecars([
            stream(2, "subrip", language: "fre", disposition: ["forced"]),
            stream(3, "subrip", language: "fre", title: "Québec"),
            stream(4, "subrip", language: "fre", title: "France"),
            stream(5, "subrip", language: "ita", disposition: ["hearing_impaired"]),
        ])
        #expect(plan.files.map(\.suffix) == [".fre.forced.srt", ".fre.srt", ".France.fre.srt", ".ita.sdh.srt"])
    }

    /// `.default` only where it tells something: on the first default track when some are not,
    /// never on a plain one; Matroska's every-track default says nothing.
    @Test func theDefaultFlag() {
        let everyone = sidecars([
            stream(2, "subrip", language: "eng", disposition: ["default"]),
            stream(3, "subrip", language: "eng", disposition: ["default", "forced"]),
        ])
        #expect(everyone.files.map(\.suffix) == [".eng.srt", ".eng.forced.srt"])
        let forced = sidecars([
            stream(2, "subrip", language: "eng"),
            stream(3, "subrip", language: "eng", disposition: ["default", "forced", "hearing_impaired"]),
            stream(4, "subrip", language: "ger", disposition: ["default", "forced"]),
        ])
        #expect(forced.files.map(\.suffix) == [".eng.srt", ".eng.forced.sdh.default.srt", ".ger.forced.srt"])
        let plain = sidecars([
            stream(2, "subrip", language: "eng", disposition: ["default"]),
            stream(3, "subrip", language: "ger"),
        ])
        #expect(plain.files.map(\.suffix) == [".eng.srt", ".ger.srt"])
    }

    /// Codes every reader reads: ISO 639-2/B, region and script dropped, none for undetermined.
    @Test func languageCodes() {
        let cases: [(String?, String?)] = [
            ("ger", "ger"), ("deu", "ger"), ("de", "ger"), ("fra", "fre"), ("fr-CA", "fre"), ("pt-BR", "por"),
            ("zh-Hant", "chi"), ("cze", "cze"), ("nld", "dut"), ("eng", "eng"), ("EN", "eng"), ("fil", "fil"),
            ("tlh", "tlh"), ("xx", "xx"), ("und", nil), ("zxx", nil), ("mul", nil), (nil, nil), ("", nil),
            ("english", nil), ("1", nil),
        ]
        for (stored, code) in cases {
            #expect(SidecarLanguage.code(stored: stored) == code, "\(stored ?? "nil")")
        }
    }

    /// Undetermined tracks: the first unflagged one is the film's own name, the others take their
    /// title, else `Track N`; flags still come after.
    @Test func undeterminedLanguage() {
        let plan = sidecars([
            stream(2, "subrip"),
            stream(3, "subrip", language: "und", title: "Signs"),
            stream(4, "subrip", language: "und"),
            stream(5, "subrip", language: "und", disposition: ["forced"]),
        ])
        #expect(plan.files.map(\.suffix) == [".srt", ".Signs.srt", ".Track 3.srt", ".forced.srt"])
        #expect(plan.files.map(\.storedLanguage) == ["und", "und", "und", "und"])
    }

    /// Titles: dots and slashes made safe; the language and flag words dropped (Jellyfin takes a
    /// part containing `forced`, `default` or `foreign` for a flag); words Kodi would take for a
    /// language joined by `_`; a title with nothing left is none.
    @Test func titles() {
        let spanish = LanguageCode("spa")
        let cases: [(String, String?)] = [
            ("Kino", "Kino"), ("Dr. Strangelove", "Dr Strangelove"), ("AC/DC", "AC-DC"),
            ("Forced Narrative", "Narrative"), ("English (Forced)", "English"), ("Spanish (Forced)", nil),
            ("Latin American", "Latin_American"), ("Latin American Spanish", "Latin_American"),
            ("Signs & Songs", "Signs & Songs"), ("SDH", nil), ("[CC]", nil), ("Defaults", nil), ("  ", nil),
            ("Español", "Español"), ("spa", nil), ("Commentary in it", "Commentary_in_it"),
            ("Line\nbreak", "Line break"),
        ]
        for (title, expected) in cases {
            #expect(SidecarTitle.make(title, language: spanish, maxBytes: 100) == expected, "\(title)")
        }
        #expect(SidecarTitle.make("Kommentar des Regisseurs", language: nil, maxBytes: 12) == "Kommentar…")
        #expect(SidecarTitle.make("Kino", language: nil, maxBytes: 0) == nil)
    }

    /// Names are unique case aside (a Samba client's) and at most 255 bytes with the film's name:
    /// titles are cut to fit, and a track that cannot fit has no sidecar.
    @Test func uniqueAndShortEnough() {
        let clash = sidecars([
            stream(2, "subrip", language: "eng"),
            stream(3, "subrip", language: "und"),
            stream(4, "subrip", language: "und", title: "ENG"),
            stream(5, "subrip", language: "ger", title: "Kino"),
            stream(6, "subrip", language: "ger", title: "Kino"),
            stream(7, "subrip", language: "ger", title: "Kino"),
        ])
        #expect(clash.files.map(\.suffix) == [".eng.srt", ".srt", ".ENG Track 3.srt", ".ger.srt", ".Kino.ger.srt",
                                               ".Kino Track 6.ger.srt"])
        let long = sidecars([
            stream(2, "subrip", language: "ger"),
            stream(3, "subrip", language: "ger", title: String(repeating: "Kommentar ", count: 5)),
            stream(4, "dvd_subtitle", language: "ger"),
        ], base: 240)
        #expect(long.files.map(\.suffix) == [".ger.srt", ".Kom….ger.srt", ".ger.idx", ".ger.sub"])
        #expect(long.files.allSatisfy { 240 + $0.suffix.utf8.count <= 255 })
        let tooLong = sidecars([stream(2, "subrip"), stream(3, "hdmv_pgs_subtitle", language: "ger")], base: 250)
        #expect(tooLong.files.map(\.suffix) == [".srt"])
        #expect(tooLong.skipped.map(\.streamIndex) == [3])
    }

    @Test func otherServerNames() {
        #expect(ServerNames.baseName(of: "Film (2019).mkv") == "Film (2019)")
        #expect(ServerNames.baseName(of: "Film.2019.1080p.mkv") == "Film.2019.1080p")
        #expect(ServerNames.baseName(of: ".mkv") == ".mkv" && ServerNames.baseName(of: "Film") == "Film")
        #expect(ServerNames.baseName(of: Name(bytes: [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6D, 0x70, 0x34])) == Name(bytes: [0x63, 0x61, 0x66, 0xE9]))
        #expect(ServerNames.trickplayFolder(of: "Film (2019).mkv") == "Film (2019).trickplay")
        #expect(ServerNames.posterSuffixes(fileExtension: "jpg") == [".jpg", "-poster.jpg"])
        #expect(ServerNames.frameSuffixes == ["-fanart.jpg", "-thumb.jpg"])
        #expect(ServerNames.bifSuffix(width: 320, intervalMilliseconds: 10_000) == "-320-10.bif")
        #expect(ServerNames.bifSuffix(width: 240, intervalMilliseconds: 2_500) == "-240-2.5.bif")
        #expect(ServerNames.bifSuffix(width: 320, intervalMilliseconds: 1_005) == "-320-1.005.bif")
        #expect(ServerNames.name("Film", ".eng.srt") == "Film.eng.srt")
    }
}
