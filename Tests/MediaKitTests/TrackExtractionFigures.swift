import Foundation
import MediaKit
import Testing
import TestSupport

/// Rough figures, not a timed test: one pass for all subtitles (or one audio track) against the
/// ffmpeg command once per track. Runs only with MEDIAFS_TRACK_FIGURES=1; prints a table.
/// MEDIAFS_TRACK_FIGURES_FILE=path measures that file instead of the small library's movie.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_TRACK_FIGURES"] == "1"))
struct TrackExtractionFigures {
    let media = LocalMediaService(probeTimeout: 20)

    /// The median of `runs` timings of `work`, in seconds.
    func seconds(runs: Int = 3, _ work: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = Date()
            try work()
            times.append(Date().timeIntervalSince(start))
        }
        return times.sorted()[times.count / 2]
    }

    @Test func onePassAgainstFFmpegPerTrack() throws {
        let path = try ProcessInfo.processInfo.environment["MEDIAFS_TRACK_FIGURES_FILE"] ?? TestMedia.file("movie-1080p.mkv").path
        let size = try TrackExtractionTests.size(path)
        let plan = TrackPlan(info: try media.probe(path: path, size: size))
        let folder = try TempFolder("figures")
        defer { folder.remove() }
        _ = try Command.shell(#"cat -- "$1" > /dev/null"#, [path], timeout: 120)  // warm the page cache for both sides

        let subtitles = TrackPlan(entries: plan.entries(in: .legible))
        let subtitleCount = Set(subtitles.entries.map(\.streamIndex)).count
        let ours = try seconds {
            let results = try media.extractTracks(path: path, size: size, plan: subtitles, into: folder.path("ours"), timeout: 600)
            precondition(results.allSatisfy { $0.track != nil })
        }
        let theirs = try seconds {
            for n in 0..<subtitleCount {
                let run = try Command.run(["ffmpeg", "-nostdin", "-y", "-v", "error", "-i", path, "-map", "0:s:\(n)", "-c:s", "srt",
                                           folder.path("ffmpeg-\(n).srt")], timeout: 600)
                precondition(run.succeeded, "\(run)")
            }
        }
        let audio = TrackPlan(entries: [plan.entries(in: .audible)[1]])
        let oursAudio = try seconds {
            _ = try media.extractTracks(path: path, size: size, plan: audio, into: folder.path("ours-audio"), timeout: 600)
        }
        let theirsAudio = try seconds {
            let run = try Command.run(["ffmpeg", "-nostdin", "-y", "-v", "error", "-i", path, "-map", "0:a:1", "-c", "copy",
                                       folder.path("ffmpeg-audio.mka")], timeout: 600)
            precondition(run.succeeded, "\(run)")
        }
        let oursAll = try seconds {
            _ = try media.extractTracks(path: path, size: size, plan: plan, into: folder.path("ours-all"), timeout: 600)
        }
        print("""
            track extraction figures for \(path) (\(size) bytes), median of 3, warm cache:
              all \(subtitleCount) subtitle streams (\(subtitles.entries.count) files), one pass: \(format(ours)) s; \
            ffmpeg -c:s srt once per stream: \(format(theirs)) s; ratio \(format(ours / theirs))
              one audio track (\(audio.entries[0].name)): \(format(oursAudio)) s; ffmpeg -c copy: \(format(theirsAudio)) s; \
            ratio \(format(oursAudio / theirsAudio))
              every track (\(plan.entries.count) files) in one pass: \(format(oursAll)) s
            """)
    }

    func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
