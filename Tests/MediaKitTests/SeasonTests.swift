import Foundation
import Synchronization
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// A season's shared intro and credits, found by Chromaprint (`SeasonMedia`): every one found
/// with both ends within half a second, in episodes whose cold opens differ, one of them in Opus
/// and one whose audio starts a quarter second after its video; nothing found among unrelated
/// films; and no fingerprint made through a failing read.
@Suite(.serialized) struct SeasonTests {
    static let service = LocalMediaService()
    /// How far an end may be from where the episode was cut.
    static let tolerance = 0.5

    static func file(_ url: URL) throws -> MediaFile {
        var st = stat()
        guard stat(url.path, &st) == 0 else { throw MediaError.io(function: "stat", code: errno) }
        return MediaFile(path: FilePath(url.path), size: Int64(st.st_size),
                         modificationNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }

    static func episodes(_ folder: URL, _ names: [String]) throws -> [SeasonEpisode] {
        try names.map { name in
            let file = try file(folder.appendingPathComponent(name))
            let audio = try #require(try service.episodeAudio(of: file, request: AnalysisRequest()))
            return SeasonEpisode(file: file, audio: audio)
        }
    }

    @Test func everyIntroAndCreditsOfTheSeasonIsFoundWithinHalfASecond() throws {
        let season = try Self.episodes(try SeasonMedia.seasonFolder(), SeasonMedia.episodes.map(\.name))
        let found = try Self.service.sharedSegments(of: season, request: AnalysisRequest())
        #expect(found.count == season.count)
        for (episode, segments) in zip(SeasonMedia.episodes, found) {
            for (kind, expected) in [(MediaSegment.Kind.intro, episode.intro), (.credits, episode.credits)] {
                let segment = try #require(segments.first { $0.kind == kind }, "\(episode.name): no \(kind) in \(segments)")
                print("\(episode.name) \(kind): \(segment.start)–\(segment.end) s, cut at \(expected.lowerBound)–\(expected.upperBound) s"
                      + String(format: " (ends off by %+.3f s, %+.3f s)", segment.start - expected.lowerBound, segment.end - expected.upperBound))
                #expect(abs(segment.start - expected.lowerBound) <= Self.tolerance, "\(episode.name) \(kind) starts at \(segment.start)")
                #expect(abs(segment.end - expected.upperBound) <= Self.tolerance, "\(episode.name) \(kind) ends at \(segment.end)")
                #expect(segment.foundBy == .sharedAudio)
                #expect(segment.sharedWith == season.count - 1)
            }
            #expect(segments.count == 2)
        }
    }

    @Test func unrelatedFilmsShareNoIntro() throws {
        let films = try Self.episodes(try SeasonMedia.unrelatedFolder(), SeasonMedia.unrelated)
        let found = try Self.service.sharedSegments(of: films, request: AnalysisRequest())
        #expect(found.allSatisfy { $0.isEmpty }, "\(found)")
    }

    /// Fingerprints cost about what fpcalc's decoding costs: timed here per episode (the bench
    /// measures them against fpcalc), each window's items one every 0.124 s from where it starts.
    @Test func fingerprintsCoverTheHeadAndTheTail() throws {
        let folder = try SeasonMedia.seasonFolder()
        for episode in SeasonMedia.episodes {
            let seen = Mutex<[Double]>([])
            let file = try Self.file(folder.appendingPathComponent(episode.name))
            let started = Date()
            let audio = try #require(try Self.service.episodeAudio(
                of: file, request: AnalysisRequest(progress: { share in seen.withLock { $0.append(share) } })))
            print(String(format: "%@: fingerprints in %.3f s", episode.name, Date().timeIntervalSince(started)))
            // Matroska gives the container's length: the audio's end where it starts late.
            #expect(abs(audio.duration - SeasonMedia.seconds - episode.audioDelay) < 0.1)
            #expect(abs(audio.head.itemSeconds - 1365.0 / 11025) < 1e-9)
            // From the first sample at or after the video's first frame (AAC's priming samples, a frame
            // of 64 ms at 16 kHz, are timed before the first sound), and from the last quarter.
            #expect(audio.head.start > -0.001 && abs(audio.head.start - episode.audioDelay) < 0.07, "head from \(audio.head.start)")
            #expect(abs(audio.tail.start - audio.duration * 3 / 4) < 0.01, "tail from \(audio.tail.start)")
            // An item every 0.124 s of the window, less the 2.6 s the last one sums.
            let quarter = audio.duration / 4
            for (window, seconds) in [(audio.head, quarter - audio.head.start), (audio.tail, quarter)] {
                #expect(abs(Double(window.items.count) * window.itemSeconds - (seconds - 2.6)) < 1.5, "\(window.items.count) items")
            }
            let progress = seen.withLock { $0 }
            #expect(progress.last == 1)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    /// Reads that fail from a byte on (as a failing disk's, `SourceInput.failingReads`): the
    /// fingerprints are those of the whole file or an error, never fewer items.
    @Test func aFailingReadGivesNoFingerprint() throws {
        let url = try SeasonMedia.seasonFolder().appendingPathComponent(SeasonMedia.episodes[1].name)
        let file = try Self.file(url)
        let whole = try #require(try Self.service.episodeAudio(of: file, request: AnalysisRequest()))
        var failed = 0
        for fifth in 1...4 {
            let offset = 4096 + (file.size - 4096) * Int64(fifth) / 5
            SourceInput.failingReads.withLock { $0[file.path] = offset }
            defer { _ = SourceInput.failingReads.withLock { $0.removeValue(forKey: file.path) } }
            do {
                let audio = try Self.service.episodeAudio(of: file, request: AnalysisRequest())
                #expect(audio == whole, "reads failing from byte \(offset) gave other fingerprints")
            } catch MediaError.unreadable(let fault) {
                #expect(fault.offset >= offset - 4096)
                failed += 1
            }
        }
        // The head and the tail are read: a fault in either fails.
        #expect(failed >= 2)
        // Placing the ends reads the files again: a fault there fails the comparison.
        let season = try Self.episodes(try SeasonMedia.seasonFolder(), SeasonMedia.episodes.prefix(2).map(\.name))
        SourceInput.failingReads.withLock { $0[file.path] = 4096 }
        defer { _ = SourceInput.failingReads.withLock { $0.removeValue(forKey: file.path) } }
        #expect(throws: MediaError.self) { try Self.service.sharedSegments(of: season, request: AnalysisRequest()) }
    }
}
