import Foundation
import Glibc
import Testing
import TestSupport

/// The text read from picture subtitles through a real mount, on films of known text
/// (`PictureSubsMedia`, `bench/picture_subs.py`): listed in `tracks/legible/` only once read,
/// read by `user.mediafs.analysis` (getfattr's call) or by a lookup before, valid SubRip at its
/// pictures' times, never read again by a remount; in the server layout `english.eng.srt`, which
/// mpv loads with its language. The reading itself is MediaKit's (`PictureTextSink`).
@Suite(.mounts) struct PictureTextMountTests {
    static let folder = "english.mkv/tracks/legible/"
    /// english.mkv's stream 1: PGS, English, with forced events.
    static let read = "eng English PGS [English pgs-clean] (read from pictures).srt"
    static let forced = "eng English PGS [English pgs-clean] (forced, read from pictures).srt"
    /// Stream 3: DVD, English, no forced event.
    static let dvdForced = "eng English VobSub [English dvd-white] (forced, read from pictures).srt"

    /// A mount of `films` (of `PictureSubsMedia`) with its own cache folder, on-demand analysis.
    static func withFilms<T>(_ name: String, _ films: [String], arguments: [String] = [],
                             _ body: (TempFolder, Mount, MountedTreeClient) throws -> T) throws -> T {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        for film in films { try FileManager.default.copyItem(atPath: try PictureSubsMedia.film(film).url.path, toPath: source + "/" + film) }
        return try mount(folder, arguments: arguments) { mount, client in try body(folder, mount, client) }
    }

    static func mount<T>(_ folder: TempFolder, arguments: [String] = [], _ body: (Mount, MountedTreeClient) throws -> T) throws -> T {
        let point = folder.path("mnt")
        if !FileManager.default.fileExists(atPath: point) { _ = try folder.makeFolder("mnt") }
        return try Mount.with(source: folder.path("source"), point: point, log: folder.path("mediafs.log"),
                              arguments: ["--analysis", "on-demand", "--cache-dir", folder.path("cache")] + arguments,
                              timeout: 30) { mount in
            try body(mount, MountedTreeClient(point: mount.point))
        }
    }

    /// Every cue at its picture's times, as many cues as events (the forced ones alone for `forced`).
    static func checkTimes(_ cues: SubRipCues, against track: PictureSubsMedia.Track, forced: Bool = false) {
        let events = track.events.filter { !forced || $0.forced }
        #expect(cues.cues.count == events.count)
        for (cue, event) in zip(cues.cues, events) {
            #expect(cue.startMs == event.startMs && cue.endMs == event.endMs, "cue \(cue.number): \(cue) against \(event)")
        }
    }

    // MARK: tracks/legible/

    /// Not listed before; `getfattr -n user.mediafs.analysis` reads it; listed after with its exact
    /// size; its bytes are SubRip at the pictures' times; a remount reads nothing again.
    /// Needs MediaKit's reading (`PictureTextSink`).
    @Test func theAnalysisReadsTheTextAndARemountReadsNothing() throws {
        let truth = try PictureSubsMedia.film("english.mkv").film
        try Self.withFilms("picture-text-analysis", ["english.mkv"]) { folder, _, client in
            let before = try client.names(Self.folder)
            #expect(before.contains("eng English PGS [English pgs-clean].sup"))
            #expect(!before.contains { $0.contains("read from pictures") }, "\(before)")
            // The picture track's own file: the main pass, which reads no picture.
            _ = try client.read(Self.folder + "eng English PGS [English pgs-clean].sup")
            #expect(try client.statistics()["read_text_sets_made"] == 0)

            let summary = try client.attributeText("user.mediafs.analysis", of: "english.mkv")
            #expect(summary.contains("\"text_read\":"), "\(summary)")
            #expect(try client.statistics()["read_text_sets_made"] == 1)
            let listed = try client.list(Self.folder)
            let entry = try #require(listed.first { $0.name == Self.read }, "\(listed.map(\.name))")
            let bytes = try client.read(Self.folder + Self.read)
            #expect(entry.size == Int64(bytes.count))
            Self.checkTimes(try SubRipCues(bytes), against: truth.tracks[0])
            let forcedBytes = try client.read(Self.folder + Self.forced)
            Self.checkTimes(try SubRipCues(forcedBytes), against: truth.tracks[0], forced: true)
            // The DVD track has no forced event: never listed, and no such name.
            #expect(!listed.map(\.name).contains(Self.dvdForced))
            #expect(throws: CallError.self) { try client.stat(Self.folder + Self.dvdForced) }
            // info.json names what was read.
            let read = try #require(try client.json("english.mkv/info.json")["text_read_from_pictures"] as? [[String: Any]])
            #expect(read.contains { $0["path"] as? String == "tracks/legible/" + Self.read && $0["stream"] as? Int == 1 })
            #expect(read.contains { $0["path"] as? String == "tracks/legible/" + Self.forced && $0["forced_only"] as? Bool == true })
        }
    }

    /// A remount on the same cache: listed at once with its size, nothing read.
    /// Needs MediaKit's reading (`PictureTextSink`).
    @Test func aRemountReadsNothingAgain() throws {
        let folder = try TempFolder("picture-text-remount")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try PictureSubsMedia.film("english.mkv").url.path, toPath: source + "/english.mkv")
        let bytes = try Self.mount(folder) { _, client in
            _ = try client.attributeText("user.mediafs.analysis", of: "english.mkv")
            return try client.read(Self.folder + Self.read)
        }
        try Self.mount(folder) { _, client in
            let listed = try client.list(Self.folder)
            #expect(listed.first { $0.name == Self.read }?.size == Int64(bytes.count), "\(listed.map(\.name))")
            _ = try client.attributeText("user.mediafs.analysis", of: "english.mkv")
            #expect(try client.read(Self.folder + Self.read) == bytes)
            let statistics = try client.statistics()
            #expect(statistics["read_text_sets_made"] == 0, "\(statistics)")
            #expect(statistics["scene_analyses"] == 0)
        }
    }

    /// A lookup before the analysis reads it then, and answers with the exact size.
    /// Needs MediaKit's reading (`PictureTextSink`).
    @Test func aLookupBeforeReadsIt() throws {
        let truth = try PictureSubsMedia.film("deutsch.mkv").film
        try Self.withFilms("picture-text-lookup", ["deutsch.mkv"]) { _, _, client in
            let name = "deutsch.mkv/tracks/legible/ger German PGS [Deutsch pgs-yellow] (read from pictures).srt"
            let size = try client.stat(name).size
            #expect(try client.statistics()["read_text_sets_made"] == 1)
            let bytes = try client.read(name)
            #expect(Int64(bytes.count) == size)
            Self.checkTimes(try SubRipCues(bytes), against: truth.tracks[0])
        }
    }

    /// A language without Tesseract data: no text file, a line in the log; the reading never runs.
    /// Passes without MediaKit's reading.
    @Test func aLanguageWithoutDataHasNoTextFile() throws {
        try Self.withFilms("picture-text-no-data", ["no-data.mkv"]) { folder, _, client in
            let names = try client.names("no-data.mkv/tracks/legible")
            #expect(names == ["jpn Japanese PGS [Japanese pgs-clean].sup"], "\(names)")
            #expect(throws: CallError.self) {
                try client.stat("no-data.mkv/tracks/legible/jpn Japanese PGS [Japanese pgs-clean] (read from pictures).srt")
            }
            _ = try client.attributeText("user.mediafs.analysis", of: "no-data.mkv")
            #expect(try client.statistics()["read_text_sets_made"] == 0)
            let log = (try? String(contentsOfFile: folder.path("mediafs.log"), encoding: .utf8)) ?? ""
            #expect(log.components(separatedBy: "is not read into text").count == 2, "one line per version")
        }
    }

    // MARK: the server layout

    /// `english.eng.srt` (the film's only English subtitles are pictures) once read, which mpv
    /// loads by itself (its default `--sub-auto=exact`) with its language.
    /// Needs MediaKit's reading (`PictureTextSink`).
    @Test(.enabled(if: MpvPlayer.program != nil, "mpv is not installed (Debian: apt-get install mpv)"))
    func theServerLayoutListsFilmEngSrtAndMpvLoadsIt() throws {
        try Self.withFilms("picture-text-server", ["english.mkv"], arguments: ["--layout", "server"]) { folder, mount, client in
            #expect(!(try client.names("")).contains("english.eng.srt"))
            _ = try client.attributeText("user.mediafs.analysis", of: "english.mkv")
            let names = try client.names("")
            #expect(names.contains("english.eng.srt") && names.contains("english.eng.forced.srt"), "\(names)")
            #expect(names.contains("english.OCR pgs-box.eng.srt"), "the second PGS track's text: \(names)")
            _ = try SubRipCues(try client.read("english.eng.srt"))
            #expect(try client.statistics()["read_text_sets_made"] == 1, "the sidecars reuse the read pass")

            let player = try MpvPlayer(file: mount.path("english.mkv"), folder: folder.path)
            let loaded = try player.tracks().filter { $0.type == "sub" && $0.external }
            player.quit()
            #expect(loaded.contains { $0.file == "english.eng.srt" && $0.language == "eng" }, "\(loaded)")
        }
    }
}
