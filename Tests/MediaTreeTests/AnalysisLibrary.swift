import Foundation
import Logging
@testable import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// A source folder for the analysis tests: an eleven-minute film without chapters and a season of
/// three episodes, tiny pictures made by the ffmpeg command; and the stand-in service they share.
final class AnalysisLibrary: Sendable {
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
final class StandInAnalysis: ForwardingMediaService {
    let base: any MediaService = LocalMediaService(probeTimeout: 20)
    let failing = Atomic<Bool>(false)
    /// Whether an analysis on one thread (the background's) pauses fifty times on its way.
    let slowBackground = Atomic<Bool>(false)
    let backgroundEntered = Atomic<Bool>(false)
    /// The file name of an episode whose audio is damaged for good, if any.
    let damagedAudio = Mutex<String?>(nil)
    /// The credits on black each scene analysis finds (nil: as an analysis made before they were
    /// looked for).
    let endCredits = Mutex<[MediaSegment]?>([])
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
        return SceneList(cuts: Self.cuts, frames: 2640, duration: 660, endCredits: endCredits.withLock { $0 })
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
final class RecordedChanges: SourceChangeSink {
    private let told = Mutex<Set<String>>([])

    var paths: Set<String> { told.withLock { $0 } }

    func sourceChanged(_ changes: SourceChanges) {
        told.withLock { told in
            for path in changes.paths { told.insert(path.description) }
        }
    }
}
