import Foundation
import Logging
import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// What the analysis shows and keeps, on the tree: what a version's analysis finds lands in its
/// record and row, shows in `info.json`, `scenes/`, a chapterless film's `chapters/` and the server
/// layout's `.edl`, with exact sizes, is never done again by a remount, and a failure that may pass
/// keeps nothing. The media service's analysis is a stand-in here (`StandInAnalysis`: cuts and
/// segments at known times), so that what the tree does with them is checked alone; MediaKit's
/// SceneTests and SeasonTests check the finding.
@Suite struct AnalysisTests {
    @Test func theAttributeAnalysesAFilmAndItsFolderShowsTheScenes() throws {
        let library = try AnalysisLibrary()
        let tree = library.tree()
        let client = DirectTreeClient(tree)
        let before = try client.read("Film.mkv/info.json")
        #expect(!String(decoding: before, as: UTF8.self).contains("\"scenes\""))
        #expect(try client.list("Film.mkv").map(\.name).contains("scenes") == false)

        let summary = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(String(decoding: summary, as: UTF8.self) == "{\"scenes\":\(StandInAnalysis.cuts.count + 1),\"segments\":[]}\n")
        #expect(library.media.sceneRuns == 1)

        // info.json: every scene's start and first frame, and its listed size its length.
        let info = try client.read("Film.mkv/info.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
        let scenes = try #require(document["scenes"] as? [[String: Any]])
        #expect(scenes.map { $0["frame"] as? Int } == [0] + StandInAnalysis.cuts.map(\.frame))
        #expect(scenes.map { $0["start"] as? Double } == [0] + StandInAnalysis.cuts.map(\.seconds))
        let listed = try client.list("Film.mkv")
        #expect(listed.first { $0.name == "info.json" }?.size == Int64(info.count))

        // scenes/: a picture per scene, named by its start, the same frame as thumbs/ under that name.
        let pictures = try client.list("Film.mkv/scenes").map(\.name).filter { $0.hasSuffix(".png") }
        #expect(pictures == ["at-00m00s.png", "at-01m02.5s.png", "at-04m10.25s.png", "at-06m00.04s.png", "at-08m20s.png"])
        let first = try client.read("Film.mkv/scenes/at-01m02.5s.png")
        #expect(first == (try client.read("Film.mkv/thumbs/at-01m02.5s.png")))
        #expect(try client.list("Film.mkv/scenes").first { $0.name == "at-01m02.5s.png" }?.size == Int64(first.count))
        #expect(String(decoding: try client.extendedAttribute("user.mediafs.time", of: "Film.mkv/scenes/at-01m02.5s.png"), as: UTF8.self) == "62.5")
        #expect(throws: CallError.self) { try client.stat("Film.mkv/scenes/at-01m03s.png") }

        // Asked again: nothing analysed again.
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(library.media.sceneRuns == 1)
    }

    @Test func aFilmWithoutChaptersListsChaptersMadeFromItsScenes() throws {
        let library = try AnalysisLibrary()
        let tree = library.tree(languages: ["de"])
        let client = DirectTreeClient(tree)
        #expect(try client.list("Film.mkv").map(\.name).contains("chapters") == false)
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")

        // Five minutes apart, each at the strongest cut within a minute: near 5:00, 04:10.25 (06:00.04
        // is a minute and more away); the next point, 10:00, is within a minute of the end.
        let names = try client.list("Film.mkv/chapters").map(\.name)
        #expect(names.filter { $0.hasSuffix(".png") } == ["01 00h00m00s Kapitel 1.png", "02 00h04m10s Kapitel 2.png"])
        let chapters = try client.read("Film.mkv/chapters/chapters.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(chapters)) as? [String: Any])
        #expect(document["source"] as? String == "found")
        #expect(String(decoding: try client.extendedAttribute("user.mediafs.chapter.source", of: "Film.mkv/chapters/02 00h04m10s Kapitel 2.png"),
                       as: UTF8.self) == "found")
        #expect(try client.list("Film.mkv/chapters").first { $0.name == "chapters.json" }?.size == Int64(chapters.count))
    }

    @Test func aRemountShowsWhatWasFoundWithoutAnalysingAgain() throws {
        let library = try AnalysisLibrary()
        let first = library.tree()
        _ = try DirectTreeClient(first).extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        let shown = try DirectTreeClient(first).read("Film.mkv/info.json")
        first.flushCaches()
        first.close()

        let again = library.tree()
        let client = DirectTreeClient(again)
        #expect(try client.read("Film.mkv/info.json") == shown)
        #expect(try client.list("Film.mkv").map(\.name).contains("scenes"))
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(library.media.sceneRuns == 1, "the remount analysed the film again")
        #expect(again.statistics.sceneAnalyses.load(ordering: .relaxed) == 0)
    }

    @Test func aFailureThatMayPassKeepsNothing() throws {
        let library = try AnalysisLibrary()
        library.media.failing.store(true, ordering: .relaxed)
        let tree = library.tree()
        let client = DirectTreeClient(tree)
        #expect(throws: CallError.self) { try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv") }
        #expect(!String(decoding: try client.read("Film.mkv/info.json"), as: UTF8.self).contains("\"scenes\""))
        library.media.failing.store(false, ordering: .relaxed)
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(String(decoding: try client.read("Film.mkv/info.json"), as: UTF8.self).contains("\"scenes\""))
    }

    @Test func aSeasonShowsItsIntroAndCreditsAsSegmentsChaptersAndAnEDL() throws {
        let library = try AnalysisLibrary()
        let tree = library.tree()
        let client = DirectTreeClient(tree)
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E02.mkv")
        #expect(library.media.fingerprints == 3, "each episode of the season fingerprinted once")
        #expect(library.media.comparisons == 1)

        let info = try client.read("Show/Show S01E02.mkv/info.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
        let segments = try #require(document["segments"] as? [[String: Any]])
        #expect(segments.map { $0["kind"] as? String } == ["intro", "credits"])
        #expect(segments.first?["found_by"] as? String == "shared-audio")
        let chapters = try client.list("Show/Show S01E02.mkv/chapters").map(\.name).filter { $0.hasSuffix(".png") }
        #expect(chapters == ["01 00h00m00s Chapter 1.png", "02 00h00m30s Intro.png", "03 00h01m30s Chapter 2.png",
                             "04 00h04m10s Chapter 3.png", "05 00h10m00s Credits.png", "06 00h11m00s Chapter 4.png"])

        // The other episodes' segments landed with the same comparison: no second one.
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E01.mkv")
        #expect(library.media.comparisons == 1)
        #expect(String(decoding: try client.read("Show/Show S01E01.mkv/info.json"), as: UTF8.self).contains("\"intro\""))

        // The server layout: Kodi's EDL beside each episode, action 3.
        tree.flushCaches()
        let server = DirectTreeClient(library.tree(layout: .server))
        let names = try server.list("Show").map(\.name)
        #expect(names.contains("Show S01E03.edl"))
        #expect(String(decoding: try server.read("Show/Show S01E03.edl"), as: UTF8.self) == "30 90 3\n600 660 3\n")
        let edl = try server.list("Show").first { $0.name == "Show S01E03.edl" }
        #expect(edl?.size == 18, "\(String(describing: edl))")
        #expect(!names.contains("Film.edl"))
    }

    /// An episode whose audio is damaged for good is kept as such: the season is compared without
    /// it, and a remount does not read its audio again.
    @Test func anEpisodeWhoseAudioCannotBeReadIsNotReadAgain() throws {
        let library = try AnalysisLibrary()
        library.media.damagedAudio.withLock { $0 = "Show S01E03.mkv" }
        let first = library.tree()
        _ = try DirectTreeClient(first).extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E02.mkv")
        #expect(library.media.fingerprints == 3)
        #expect(library.media.comparisons == 1)
        #expect(!String(decoding: try DirectTreeClient(first).read("Show/Show S01E03.mkv/info.json"), as: UTF8.self)
            .contains("\"intro\""))
        first.flushCaches()
        first.close()

        let again = library.tree()
        _ = try DirectTreeClient(again).extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E03.mkv")
        #expect(library.media.fingerprints == 3, "the damaged episode's audio was read again")
        #expect(again.statistics.audioFingerprints.load(ordering: .relaxed) == 0)
        #expect(String(decoding: try DirectTreeClient(again).read("Show/Show S01E01.mkv/info.json"), as: UTF8.self)
            .contains("\"intro\""))
    }

    @Test func theBackgroundAnalysesWhatTheMountMeetsAndSaysWhatChanged() throws {
        let library = try AnalysisLibrary()
        var settings = library.settings(layout: .folders)
        settings.analysis = .background
        let tree = MediaTree(sourceRoot: library.source.path, media: library.media, logger: Logger(label: "test"), settings: settings)
        defer { tree.close() }
        let changes = RecordedChanges()
        tree.watchSource(reportingTo: changes)
        let client = DirectTreeClient(tree)
        _ = try client.list("")
        _ = try client.list("Show")
        let landed = Wait.until(30) { changes.paths.isSuperset(of: ["Film.mkv", "Show/Show S01E01.mkv", "Show/Show S01E03.mkv"]) }
        #expect(landed, "changes told: \(changes.paths.sorted())")
        #expect(String(decoding: try client.read("Film.mkv/info.json"), as: UTF8.self).contains("\"scenes\""))
        #expect(Wait.until(30) { library.media.comparisons == 1 })
        #expect(library.media.sceneRuns == 4, "every video once")
    }
}

/// A request waiting for the analysis the background is running does not wait for the background
/// to find the mount quiet: the background no longer pauses for requests while one waits for it.
@Suite struct AnalysisWaitTests {
    @Test func theAttributeDuringTheBackgroundsAnalysisOfTheSameFilmIsAnswered() throws {
        let library = try AnalysisLibrary()
        library.media.slowBackground.store(true, ordering: .relaxed)
        var settings = library.settings(layout: .folders)
        settings.analysis = .background
        let tree = MediaTree(sourceRoot: library.source.path, media: library.media, logger: Logger(label: "test"), settings: settings)
        defer { tree.close() }
        let client = DirectTreeClient(tree)
        _ = try client.list("")
        #expect(Wait.until(30) { library.media.backgroundEntered.load(ordering: .relaxed) })
        // A request in flight all along (a long read, say): the background pauses for it.
        tree.activity.begin()
        defer { tree.activity.end() }
        // Asked on a thread of its own, waited for at most 30 s: a wait for quiet would hang it.
        let answer = Mutex<[UInt8]?>(nil)
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let summary = try? client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
            answer.withLock { $0 = summary }
            answered.signal()
        }
        try #require(answered.wait(timeout: .now() + 30) == .success, "the attribute waited for the background to find the mount quiet")
        #expect(String(decoding: answer.withLock { $0 } ?? [], as: UTF8.self).hasPrefix("{\"scenes\":5"))
        #expect(library.media.sceneRuns == 1, "analysed once, by the background")
    }
}

/// A source folder for the analysis tests: an eleven-minute film without chapters and a season of
/// three episodes, tiny pictures made by the ffmpeg command; and the stand-in service they share.
private final class AnalysisLibrary: Sendable {
    let source: URL
    let cache: URL
    let media = StandInAnalysis()

    /// A copy of the library, made once per test process (the copies are other files: other versions).
    init() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-analysis-\(UUID().uuidString)")
        source = root.appendingPathComponent("source")
        cache = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Self.made.get(), to: source)
    }

    deinit { try? FileManager.default.removeItem(at: source.deletingLastPathComponent()) }

    private static let made = Result { () throws -> URL in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-analysis-library-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Show"), withIntermediateDirectories: true)
        try video(folder.appendingPathComponent("Film.mkv"), seconds: 660)
        for episode in 1...3 {
            try video(folder.appendingPathComponent("Show/Show S01E0\(episode).mkv"), seconds: 700)
        }
        return folder
    }

    /// A video of `seconds` at 4 frames a second, 64×36, with a tone: made in a moment.
    private static func video(_ file: URL, seconds: Int) throws {
        let made = try Command.run(["ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x36:rate=4",
                                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000", "-t", String(seconds),
                                    "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-b:a", "16k", file.path], timeout: 120)
        guard made.succeeded else { throw HarnessError("ffmpeg failed: \(made)") }
    }

    func settings(layout: TreeLayout) -> TreeSettings {
        var settings = TreeSettings()
        settings.cacheDirectory = cache.path
        settings.layout = layout
        return settings
    }

    func tree(layout: TreeLayout = .folders, languages: [String] = []) -> MediaTree {
        var settings = settings(layout: layout)
        settings.preferredLanguages = languages
        return MediaTree(sourceRoot: source.path, media: media, logger: Logger(label: "test"), settings: settings)
    }
}

/// The media service with the analysis answered at known times: cuts at 62.5 s, 250.25 s, 360.04 s
/// and 500 s (their strengths chosen so that chapters pick some), an intro from 30 to 90 s and
/// credits from 600 to 660 s shared by every episode. Counts what it is asked; fails with a read
/// that may pass while `failing`.
private final class StandInAnalysis: ForwardingMediaService {
    let base: any MediaService = LocalMediaService(probeTimeout: 20)
    let failing = Atomic<Bool>(false)
    /// Whether an analysis on one thread (the background's) pauses fifty times on its way.
    let slowBackground = Atomic<Bool>(false)
    let backgroundEntered = Atomic<Bool>(false)
    /// The file name of an episode whose audio is damaged for good, if any.
    let damagedAudio = Mutex<String?>(nil)
    private let counts = Mutex<[String: Int]>([:])

    static let cuts = [SceneCut(seconds: 62.5, frame: 250, strength: 0.5), SceneCut(seconds: 250.25, frame: 1001, strength: 0.9),
                       SceneCut(seconds: 360.04, frame: 1440, strength: 0.4), SceneCut(seconds: 500, frame: 2000, strength: 0.7)]

    var sceneRuns: Int { counts.withLock { $0["scenes"] ?? 0 } }
    var fingerprints: Int { counts.withLock { $0["audio"] ?? 0 } }
    var comparisons: Int { counts.withLock { $0["compare"] ?? 0 } }

    func scenes(of file: MediaFile, request: AnalysisRequest) throws -> SceneList {
        try request.pause()
        if request.threads == 1 && slowBackground.load(ordering: .relaxed) {
            backgroundEntered.store(true, ordering: .relaxed)
            for _ in 0..<50 {
                usleep(20_000)
                try request.pause()
            }
        }
        if failing.load(ordering: .relaxed) { throw MediaError.unreadable(ReadFault(offset: 0, kind: .failed(errno: EIO))) }
        counts.withLock { $0["scenes", default: 0] += 1 }
        return SceneList(cuts: Self.cuts, frames: 2640, duration: 660)
    }

    func episodeAudio(of file: MediaFile, request: AnalysisRequest) throws -> EpisodeAudio? {
        counts.withLock { $0["audio", default: 0] += 1 }
        if let damaged = damagedAudio.withLock({ $0 }), file.path.string.hasSuffix("/" + damaged) {
            throw MediaError.damaged(reason: "the audio does not decode")
        }
        let stretch = AudioFingerprint(start: 0, itemSeconds: 0.1238, items: [1, 2, 3])
        return EpisodeAudio(head: stretch, tail: stretch, duration: 700)
    }

    func sharedSegments(of episodes: [SeasonEpisode], request: AnalysisRequest) throws -> [[MediaSegment]] {
        counts.withLock { $0["compare", default: 0] += 1 }
        return episodes.map { _ in
            [MediaSegment(kind: .intro, start: 30, end: 90, foundBy: .sharedAudio, sharedWith: episodes.count - 1),
             MediaSegment(kind: .credits, start: 600, end: 660, foundBy: .sharedAudio, sharedWith: episodes.count - 1)]
        }
    }
}

/// The paths a change sink was told of.
private final class RecordedChanges: SourceChangeSink {
    private let told = Mutex<Set<String>>([])

    var paths: Set<String> { told.withLock { $0 } }

    func sourceChanged(_ changes: SourceChanges) {
        told.withLock { told in
            for path in changes.paths { told.insert(path.description) }
        }
    }
}
