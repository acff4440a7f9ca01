import Foundation
@testable import MediaKit
@testable import MediaTree
import SystemPackage
import Testing
import TestSupport

/// Track names and groups from the probe (`TrackPlan(info:)`): the fixtures, and made-up streams
/// for the rules that the fixtures do not reach.
@Suite struct TrackNamingTests {
    let media = LocalMediaService(probeTimeout: 20)

    func plan(_ relativePath: String) throws -> TrackPlan {
        let url = try TestMedia.file(relativePath)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! NSNumber
        return TrackPlan(info: try media.probe(path: FilePath(url.path), size: size.int64Value))
    }

    @Test func mp4WithTwoAudioLanguagesAndTimedText() throws {
        let plan = try plan("feature-1080p.mp4")
        #expect(plan.entries(in: .audible).map(\.name) == ["eng English AAC stereo (default).mka", "spa Spanish AAC stereo.mka"])
        #expect(plan.entries(in: .audible).map(\.streamIndex) == [1, 2])
        #expect(plan.entries(in: .legible).map(\.name) == ["eng English Timed Text (default).srt", "eng English Timed Text (default).vtt"])
        #expect(plan.entries(in: .legible).map(\.output) == [.subtitleSRT, .subtitleWebVTT])
        // One moving video: no visual group. The chapter text (a data stream) is not a track.
        #expect(plan.entries(in: .visual).isEmpty)
        #expect(plan.entries.allSatisfy { $0.streamIndex != 4 })
    }

    @Test func matroskaWithThreeAudioLanguagesAndThreeSubtitles() throws {
        let plan = try plan("movie-1080p.mkv")
        #expect(plan.entries(in: .audible).map(\.name) == [
            "eng English AAC 5.1 [English 5.1].mka",
            "fra French AC-3 stereo (default) [Français].mka",
            "deu German Opus stereo [Deutsch].mka",
        ])
        // The SRT track's title "English" only repeats its language and is left out.
        #expect(plan.entries(in: .legible).map(\.name) == [
            "eng English SRT.srt", "eng English SRT.vtt",
            "fra French ASS (forced) [Français (forcé)].srt", "fra French ASS (forced) [Français (forcé)].vtt",
            "fra French ASS (forced) [Français (forcé)].ass",
            "eng English SRT (SDH) [English SDH].srt", "eng English SRT (SDH) [English SDH].vtt",
        ])
        #expect(plan.entries(in: .legible).map(\.streamIndex) == [4, 4, 5, 5, 5, 6, 6])
        #expect(plan.entries(in: .legible).map(\.language) == ["eng", "eng", "fra", "fra", "fra", "eng", "eng"])
        // The cover (an attached picture) is not a video track.
        #expect(plan.entries(in: .visual).isEmpty)
    }

    @Test func webmWithWebVTT() throws {
        let plan = try plan("clips/clip-vp9.webm")
        #expect(plan.entries(in: .audible).map(\.name) == ["eng English Opus mono.mka"])
        #expect(plan.entries(in: .legible).map(\.name) == ["eng English WebVTT.srt", "eng English WebVTT.vtt"])
    }

    @Test func fileWithoutSubtitlesOrLanguage() throws {
        let plan = try plan("clips/Holiday Café 2021.mp4")
        #expect(plan.entries.map(\.name) == ["und Undetermined AAC stereo (default).mka"])
        #expect(plan.entries(in: .legible).isEmpty && plan.entries(in: .visual).isEmpty)
        #expect(!plan.isEmpty)
    }

    @Test func thePlanIsStableAcrossProbesAndCodable() throws {
        let first = try plan("movie-1080p.mkv")
        #expect(try plan("movie-1080p.mkv") == first)
        let decoded = try JSONDecoder().decode(TrackPlan.self, from: JSONEncoder().encode(first))
        #expect(decoded == first)
    }

    // MARK: - Rules on made-up streams

    func stream(_ index: Int, _ kind: MediaInfo.Kind, _ codec: String?, language: String? = nil, title: String? = nil,
                channels: Int? = nil, layout: String? = nil, disposition: [String] = [], size: (Int, Int)? = nil) -> MediaInfo.Stream {
        MediaInfo.Stream(index: index, kind: kind, codec: codec, width: size?.0, height: size?.1, channels: channels,
                         channelLayout: layout, language: language, title: title, disposition: disposition, tags: [:])
    }

    /// The plan of `streams`, no language readable from pictures (`ReadTextNamingTests` has those).
    func plan(_ streams: [MediaInfo.Stream]) -> TrackPlan {
        TrackPlan(info: MediaInfo(container: .init(format: "matroska,webm", size: 1), streams: streams, chapters: [], tags: [:]),
                  readable: { _ in false })
    }

    @Test func sameNamesInAGroupAreNumberedInStreamOrder() {
        let plan = plan([
            stream(3, .audio, "ac3", language: "eng", channels: 2),
            stream(1, .audio, "ac3", language: "eng", channels: 2),
            stream(2, .audio, "ac3", language: "eng", channels: 2),
            stream(4, .subtitle, "subrip", language: "eng"),
            stream(5, .subtitle, "subrip", language: "eng"),
        ])
        #expect(plan.entries(in: .audible).map(\.name) == [
            "eng English AC-3 stereo.mka", "eng English AC-3 stereo #2.mka", "eng English AC-3 stereo #3.mka",
        ])
        #expect(plan.entries(in: .audible).map(\.streamIndex) == [1, 2, 3])
        #expect(plan.entries(in: .legible).map(\.name) == [
            "eng English SRT.srt", "eng English SRT.vtt", "eng English SRT #2.srt", "eng English SRT #2.vtt",
        ])
    }

    @Test func flagsInTheirOrder() {
        let plan = plan([
            stream(0, .audio, "eac3", language: "fre", channels: 8, layout: "7.1", disposition: ["comment", "default"]),
            stream(1, .audio, "dts", language: "de", channels: 6, layout: "5.1(side)", disposition: ["visual_impaired"]),
            stream(2, .audio, "pcm_s16le", language: "xyz", channels: 3, layout: "2.1"),
            stream(3, .audio, "truehd", language: "en-US", channels: 1, layout: "mono"),
            stream(4, .subtitle, "subrip", language: "spa", disposition: ["hearing_impaired", "forced", "default"]),
        ])
        #expect(plan.entries(in: .audible).map(\.name) == [
            "fre French E-AC-3 7.1 (default, commentary).mka",
            "de German DTS 5.1 (visual impaired).mka",
            "xyz PCM 3 ch.mka",
            "en-US English TrueHD mono.mka",
        ])
        #expect(plan.entries(in: .legible).first?.name == "spa Spanish SRT (default, forced, SDH).srt")
    }

    @Test func subtitleKindsAndWhatIsNeverATrack() {
        let plan = plan([
            stream(0, .video, "h264", disposition: ["default"], size: (1920, 1080)),
            stream(1, .video, "mjpeg", disposition: ["attached_pic"], size: (600, 900)),
            stream(2, .subtitle, "hdmv_pgs_subtitle", language: "deu"),
            stream(3, .subtitle, "dvd_subtitle", language: "fra"),
            stream(4, .subtitle, "ssa", language: "jpn"),
            stream(5, .subtitle, "eia_608"),
            stream(6, .data, "bin_data"),
            stream(7, .attachment, "ttf"),
            stream(8, .subtitle, nil),
        ])
        #expect(plan.entries.map(\.name) == [
            "deu German PGS.sup", "fra French VobSub.mks",
            "jpn Japanese SSA.srt", "jpn Japanese SSA.vtt", "jpn Japanese SSA.ass",
        ])
        #expect(plan.entries.map(\.output) == [.bitmapSUP, .bitmapMatroska, .subtitleSRT, .subtitleWebVTT, .subtitleASS])
    }

    @Test func alternativeVideoOnlyWhenThereIsMoreThanOne() {
        let two = plan([
            stream(0, .video, "h264", language: "eng", disposition: ["default"], size: (1920, 1080)),
            stream(1, .video, "hevc", language: "eng", title: "Angle 2", size: (1280, 720)),
            stream(2, .video, "mjpeg", disposition: ["attached_pic"], size: (600, 900)),
            stream(3, .video, "h264", disposition: ["timed_thumbnails"], size: (160, 90)),
        ])
        #expect(two.entries(in: .visual).map(\.name) == [
            "eng English H.264 1920x1080 (default).mkv", "eng English HEVC 1280x720 [Angle 2].mkv",
        ])
        let one = plan([stream(0, .video, "h264", size: (640, 360)), stream(1, .video, "mjpeg", disposition: ["attached_pic"])])
        #expect(one.entries.isEmpty)
    }

    @Test func titlesAreMadeSafeAndNamesFitIn255Bytes() {
        let long = String(repeating: "é", count: 200) + "END"
        let plan = plan([
            stream(0, .audio, "aac", language: "eng", title: "AC/DC\u{0}live\n\ttour\u{7F}  2024 ", channels: 2),
            stream(1, .audio, "aac", language: "eng", title: long, channels: 2),
            stream(2, .audio, "aac", language: "eng", title: long, channels: 2),
            stream(3, .audio, "aac", language: "eng", title: "\u{1}\u{2} ", channels: 2),
            stream(4, .audio, "aac", language: "eng", title: "ENG", channels: 2),
        ])
        let names = plan.entries.map(\.name)
        #expect(names[0] == "eng English AAC stereo [AC-DC live tour 2024].mka")
        for name in names {
            #expect(name.utf8.count <= 255)
            #expect(!name.contains("/") && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
        #expect(names[1].hasPrefix("eng English AAC stereo [éé") && names[1].hasSuffix("].mka"))
        #expect(names[2] == names[1].replacingOccurrences(of: ".mka", with: " #2.mka"))
        // A title of control characters only is no title; one that only repeats the language neither.
        #expect(names[3] == "eng English AAC stereo.mka")
        #expect(names[4] == "eng English AAC stereo #2.mka")
    }

    @Test func languages() {
        #expect(TrackLanguage(stored: nil) == TrackLanguage(stored: ""))
        #expect(TrackLanguage(stored: nil).code == "und" && TrackLanguage(stored: nil).englishName == "Undetermined")
        #expect(TrackLanguage(stored: "ger").englishName == "German")
        #expect(TrackLanguage(stored: "deu").englishName == "German")
        #expect(TrackLanguage(stored: "de").englishName == "German")
        #expect(TrackLanguage(stored: "ZHO").englishName == "Chinese")
        #expect(TrackLanguage(stored: "pt-BR").englishName == "Portuguese")
        #expect(TrackLanguage(stored: "qaa").englishName == nil)
        #expect(TrackLanguage(stored: "../etc").code == "etc")
        #expect(TrackLanguage(stored: "fre").englishName == LanguageCode("fra")?.englishName)
    }

    @Test func fileNameText() {
        #expect(FileNameText.safe(" a/b\u{0}c\u{85}d\u{2028}e  f ", maxBytes: 100) == "a-b c d e f")
        #expect(FileNameText.safe("ééé", maxBytes: 5) == "éé")
        #expect(FileNameText.safe("ab cd", maxBytes: 3) == "ab")
        #expect(FileNameText.truncated("e\u{301}x", toBytes: 2) == "")  // no half of "é" (e + combining accent)
    }

    @Test func codecNamesAndLayouts() {
        #expect(["aac", "ac3", "eac3", "dts", "opus", "vorbis", "flac", "mp3", "truehd", "pcm_s24le"].map(TrackLabels.codecName)
            == ["AAC", "AC-3", "E-AC-3", "DTS", "Opus", "Vorbis", "FLAC", "MP3", "TrueHD", "PCM"])
        #expect(["subrip", "ass", "mov_text", "webvtt", "hdmv_pgs_subtitle", "dvd_subtitle", "dvb_subtitle", "weird"].map(TrackLabels.codecName)
            == ["SRT", "ASS", "Timed Text", "WebVTT", "PGS", "VobSub", "DVB", "weird"])
        #expect(TrackLabels.channels(count: 6, layout: "5.1(side)") == "5.1")
        #expect(TrackLabels.channels(count: 8, layout: "7.1(wide)") == "7.1")
        #expect(TrackLabels.channels(count: 2, layout: "2 channels") == "stereo")
        #expect(TrackLabels.channels(count: 4, layout: "quad") == "4 ch")
        #expect(TrackLabels.channels(count: nil, layout: nil) == nil)
    }
}
