@testable import MediaKit
@testable import MediaTree
import Testing

/// The names of the text read from picture subtitles: `tracks/legible/`'s (`TrackPlan`) and the
/// server layout's sidecars (`SidecarSubtitles.readFiles`), for languages said to have data.
@Suite struct ReadTextNamingTests {
    /// English, German and French have data here; nothing else does.
    static let readable: TrackPlan.Readable = { ["eng", "ger", "deu", "fre", "fra"].contains($0) }

    func stream(_ index: Int, _ codec: String, language: String? = nil, title: String? = nil,
                disposition: [String] = []) -> MediaInfo.Stream {
        MediaInfo.Stream(index: index, kind: .subtitle, codec: codec, language: language, title: title,
                         disposition: disposition, tags: [:])
    }

    func info(_ streams: [MediaInfo.Stream]) -> MediaInfo {
        let video = MediaInfo.Stream(index: 0, kind: .video, codec: "h264", width: 1920, height: 1080, disposition: [], tags: [:])
        return MediaInfo(container: .init(format: "matroska,webm", size: 1), streams: [video] + streams, chapters: [], tags: [:])
    }

    func legible(_ streams: [MediaInfo.Stream]) -> [TrackPlan.Entry] {
        TrackPlan(info: info(streams), readable: Self.readable).entries(in: .legible)
    }

    @Test func aPictureStreamWithDataGivesTwoTextFilesAfterItsOwn() {
        let entries = legible([stream(2, "hdmv_pgs_subtitle", language: "eng"), stream(3, "dvd_subtitle", language: "fre")])
        #expect(entries.map(\.name) == [
            "eng English PGS.sup", "eng English PGS (read from pictures).srt", "eng English PGS (forced, read from pictures).srt",
            "fra French VobSub.mks", "fra French VobSub (read from pictures).srt", "fra French VobSub (forced, read from pictures).srt",
        ].map { $0.replacingOccurrences(of: "fra French", with: "fre French") })
        #expect(entries.map(\.output) == [.bitmapSUP, .subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced,
                                          .bitmapMatroska, .subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced])
        #expect(entries.map(\.streamIndex) == [2, 2, 2, 3, 3, 3])
        // In a pass of their own.
        #expect(entries.map { TrackSetKey.Part($0) } == [.main, .read, .read, .main, .read, .read])
    }

    @Test func noDataUndeterminedOrTextGiveNone() {
        let entries = legible([stream(2, "hdmv_pgs_subtitle", language: "jpn"), stream(3, "hdmv_pgs_subtitle"),
                               stream(4, "dvb_subtitle", language: "und"), stream(5, "subrip", language: "eng")])
        #expect(!entries.contains { $0.output.isReadFromPictures })
        #expect(entries.count == 5)
        #expect(TrackPlan.unreadable(info([stream(2, "hdmv_pgs_subtitle", language: "jpn"), stream(3, "hdmv_pgs_subtitle")]),
                                     readable: Self.readable).map(\.index) == [2])
    }

    /// Flags and titles stay in the base; two streams of one name are told apart by ` #2` before
    /// the marker, as their own files are.
    @Test func flagsTitlesAndTwins() {
        let entries = legible([stream(2, "hdmv_pgs_subtitle", language: "ger", title: "Kommentar", disposition: ["forced"]),
                               stream(3, "hdmv_pgs_subtitle", language: "eng"), stream(4, "hdmv_pgs_subtitle", language: "eng")])
        #expect(entries.map(\.name) == [
            "ger German PGS (forced) [Kommentar].sup", "ger German PGS (forced) [Kommentar] (read from pictures).srt",
            "ger German PGS (forced) [Kommentar] (forced, read from pictures).srt",
            "eng English PGS.sup", "eng English PGS (read from pictures).srt", "eng English PGS (forced, read from pictures).srt",
            "eng English PGS #2.sup", "eng English PGS #2 (read from pictures).srt", "eng English PGS #2 (forced, read from pictures).srt",
        ])
    }

    /// A title long enough to fill a name: every name at most 255 bytes, unique, the marker kept.
    @Test func longTitlesStayWithin255BytesAndUnique() {
        let title = String(repeating: "Ü", count: 200)
        let entries = legible((2...4).map { stream($0, "hdmv_pgs_subtitle", language: "eng", title: title) })
        #expect(entries.allSatisfy { $0.name.utf8.count <= 255 })
        #expect(Set(entries.map(\.name)).count == entries.count)
        #expect(entries.filter { $0.name.hasSuffix(" (forced, read from pictures).srt") }.count == 3)
        #expect(entries.filter { $0.name.hasSuffix(" (read from pictures).srt") }.count == 3)
        #expect(entries.contains { $0.name.hasSuffix(" #3 (forced, read from pictures).srt") })
    }

    // MARK: - The server layout's sidecars

    func sidecars(_ streams: [MediaInfo.Stream], base: Int = 4) -> SidecarSubtitles {
        SidecarSubtitles(info: info(streams), baseNameBytes: base, readable: Self.readable)
    }

    /// A film whose only English subtitle is pictures: its text takes the plain name every reader
    /// loads, the forced events `.eng.forced.srt`.
    @Test func theOnlyEnglishSubtitleIsPictures() {
        let plan = sidecars([stream(2, "hdmv_pgs_subtitle", language: "eng")])
        #expect(plan.files.map(\.suffix) == [".eng.sup"])
        #expect(plan.readFiles.map(\.suffix) == [".eng.srt", ".eng.forced.srt"])
        #expect(plan.readFiles.map(\.output) == [.subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced])
        #expect(plan.readFiles.map(\.streamIndex) == [2, 2])
    }

    /// Where text tracks took the names, the read ones are titled `OCR` (a part no reader takes
    /// for a language or a flag), with the track's own title after it; a name that would repeat
    /// another gets `Track N` as every sidecar does. No language without data, none for `und`.
    @Test func textTracksKeepTheirNames() {
        let plan = sidecars([
            stream(2, "subrip", language: "eng"),
            stream(3, "subrip", language: "eng", disposition: ["forced"]),
            stream(4, "hdmv_pgs_subtitle", language: "eng"),
            stream(5, "hdmv_pgs_subtitle", language: "eng", title: "Commentary"),
            stream(6, "hdmv_pgs_subtitle", language: "jpn"),
            stream(7, "hdmv_pgs_subtitle"),
            stream(8, "dvd_subtitle", language: "ger", disposition: ["forced"]),
        ])
        #expect(plan.files.map(\.suffix) == [".eng.srt", ".eng.forced.srt", ".eng.sup", ".Commentary.eng.sup", ".jpn.sup",
                                             ".sup", ".ger.forced.idx", ".ger.forced.sub"])
        #expect(plan.readFiles.map(\.suffix) == [
            ".OCR.eng.srt", ".OCR.eng.forced.srt", ".OCR Commentary.eng.srt", ".OCR Commentary.eng.forced.srt",
            // A forced track's text is its forced events: one file.
            ".ger.forced.srt",
        ])
        #expect(plan.readFiles.map(\.streamIndex) == [4, 4, 5, 5, 8])
        let all = (plan.files + plan.readFiles).map { $0.suffix.lowercased() }
        #expect(Set(all).count == all.count)
    }

    @Test func twoPictureTracksOfOneLanguage() {
        let plan = sidecars([stream(2, "hdmv_pgs_subtitle", language: "fre"), stream(3, "hdmv_pgs_subtitle", language: "fre")])
        #expect(plan.readFiles.map(\.suffix) == [".fre.srt", ".fre.forced.srt", ".OCR.fre.srt", ".OCR.fre.forced.srt"])
    }

    /// No language part of the read names is read as a language by Kodi (`OCR` is no ISO 639 code).
    @Test func theTitleWordIsNoLanguage() {
        #expect(!SidecarTitle.namesALanguage(SidecarTrack.readTitleWord))
        #expect(LanguageCode(SidecarTrack.readTitleWord.lowercased())?.englishName == nil)
    }

    @Test func aLongFilmNameLeavesNoRoomForSome() {
        let plan = sidecars([stream(2, "hdmv_pgs_subtitle", language: "eng")], base: 255 - ".eng.sup".utf8.count)
        #expect(plan.files.map(\.suffix) == [".eng.sup"])
        #expect(plan.readFiles.map(\.suffix) == [".eng.srt"])
        #expect(plan.skipped.map(\.streamIndex) == [2])
    }
}
