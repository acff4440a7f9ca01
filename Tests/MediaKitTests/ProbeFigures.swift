import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Rough figures, not a timed test: how long a probe takes, warm page cache, median of 21, and
/// apart from it what `ChapterImageTracks` adds to the probe of a QuickTime file with a JPEG or PNG
/// video stream (reading and parsing the `moov` again), which on a busy machine is easier to see
/// alone than as a difference of two probe times.
/// Runs only with MEDIAFS_PROBE_FIGURES=1; prints a line per file. MEDIAFS_PROBE_FIGURES_FILES
/// (paths separated by `:`) measures those files instead of an MP4 of the small library with
/// chapters, one without, and the chapter media's MP4 with a JPEG chapter image track.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_PROBE_FIGURES"] == "1"))
struct ProbeFigures {
    @Test func probeTimes() throws {
        let paths: [String]
        if let list = ProcessInfo.processInfo.environment["MEDIAFS_PROBE_FIGURES_FILES"], !list.isEmpty {
            paths = list.split(separator: ":").map(String.init)
        } else {
            paths = [try TestMedia.file("feature-1080p.mp4").path, try TestMedia.file("clips/Holiday Café 2021.mp4").path,
                     try ChapterMedia.file("jpeg-chapter-track.mp4").path]
        }
        for path in paths {
            let size = try TrackExtractionTests.size(path)
            _ = try Command.shell(#"cat -- "$1" > /dev/null"#, [path], timeout: 120)
            var times: [Double] = []
            for _ in 0..<21 {
                // A service of its own each time: nothing kept from the last probe.
                let media = LocalMediaService(probeTimeout: 20)
                let start = Date()
                _ = try media.probe(path: path, size: size)
                times.append(Date().timeIntervalSince(start))
            }
            times.sort()
            var moov: [Double] = []
            var found = "not QuickTime"
            for _ in 0..<21 {
                let start = Date()
                let ids = try? QuickTimeMovie(FileReader(path: path, length: size)).chapterImageTrackIDs
                moov.append(Date().timeIntervalSince(start))
                found = ids.map { "chapter image tracks \($0.sorted())" } ?? found
            }
            moov.sort()
            print(String(format: "probe %@ (%lld bytes): median %.2f ms, min %.2f ms, max %.2f ms; moov read again: median %.2f ms, min %.2f ms (%@)",
                         (path as NSString).lastPathComponent, size, times[10] * 1000, times[0] * 1000, times[20] * 1000,
                         moov[10] * 1000, moov[0] * 1000, found))
        }
    }
}
