import Foundation
import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Extraction from damaged files, with bad jobs and bounds, and of alternative video.
@Suite struct TrackExtractionFailureTests {
    let media = LocalMediaService(probeTimeout: 20)

    func probe(_ path: String) throws -> (info: MediaInfo, size: Int64) {
        let size = try TrackExtractionTests.size(path)
        return (try media.probe(path: FilePath(path), size: size), size)
    }

    func leftovers(in folder: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return names.filter { ($0 as NSString).lastPathComponent.hasPrefix(".") }
    }

    @Test func aTruncatedFileGivesItsTracksUpToTheCut() throws {
        let truncated = try TestMedia.file("broken/feature-truncated.mp4").path
        let (info, size) = try probe(truncated)
        let folder = try TempFolder("truncated")
        defer { folder.remove() }
        let results = try media.extractAllTracks(path: truncated, size: size, info: info, into: folder.path)
        #expect(results.count == 4)
        for result in results {
            let track = try #require(result.track, "\(result.job.path): \(String(describing: result.error))")
            #expect(track.cutShort != nil)
        }
        // Each audio file is valid, shorter than the source says, and holds what ffmpeg can copy.
        for (n, result) in results.filter({ $0.group == "audible" }).enumerated() {
            let path = try #require(result.track).path.string
            let made = try FFprobe.span(path, stream: 0)
            let copy = folder.path("copy-\(n).mka")
            let ffmpeg = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", truncated, "-map", "0:a:\(n)", "-c", "copy", copy], timeout: 60)
            #expect(ffmpeg.succeeded)
            let reference = try FFprobe.span(copy, stream: 0)
            #expect(made.duration > 5 && made.duration < 25)
            #expect(abs(made.duration - reference.duration) <= reference.frame + 0.001, "\(made) vs ffmpeg \(reference)")
        }
        // The subtitles hold the cues before the cut, as in the whole file.
        let srt = try SubtitleFileParser.srt(try TrackExtractionTests.read(try #require(results.first { $0.job.output == .subtitleSRT }?.track).path))
        let whole = try SubtitleFileParser.srt(try FFprobe.ffmpegSRT(try TestMedia.file("feature-1080p.mp4").path, subtitle: 0))
        #expect(!srt.isEmpty && srt.count < whole.count)
        #expect(Array(whole.prefix(srt.count)) == srt)
        #expect(leftovers(in: folder.path).isEmpty)
    }

    @Test func jobsThatDoNotFitTheFileFailAlone() throws {
        let movie = try TestMedia.file("movie-1080p.mkv").path
        let (info, size) = try probe(movie)
        let folder = try TempFolder("bad-plan")
        defer { folder.remove() }
        let good = try #require(TestJobs.jobs(for: info, into: folder.path).first { $0.output == .audioMatroska })
        var videoAsAudio = good
        videoAsAudio.streamIndex = 0
        videoAsAudio.path = FilePath(folder.path("audible/video as audio.mka"))
        var missing = good
        missing.streamIndex = 99
        missing.path = FilePath(folder.path("audible/missing.mka"))
        var audioAsASS = good
        audioAsASS.output = .subtitleASS
        audioAsASS.path = FilePath(folder.path("legible/audio.ass"))
        let jobs = [videoAsAudio, good, missing, audioAsASS]
        try TestJobs.makeFolders(for: jobs)
        let results = try media.extractTracks(path: FilePath(movie), size: size, jobs: jobs, timeout: 60)
        #expect(results.map(\.job) == jobs)
        #expect(results[1].track != nil)
        for index in [0, 2, 3] {
            guard case .trackUnavailable? = results[index].error else {
                Issue.record("\(results[index].job.path): \(results[index].outcome)")
                continue
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("audible/video as audio.mka")))
        // Results are plain values: they survive a trip through JSON (as to a worker process).
        #expect(try JSONDecoder().decode([TrackResult].self, from: JSONEncoder().encode(results)) == results)
        #expect(leftovers(in: folder.path).isEmpty)
    }

    @Test func wholeFileFailuresThrow() throws {
        let movie = try TestMedia.file("movie-1080p.mkv").path
        let (info, size) = try probe(movie)
        let folder = try TempFolder("throws")
        defer { folder.remove() }
        let jobs = TestJobs.jobs(for: info, into: folder.path)
        try TestJobs.makeFolders(for: jobs)
        do {
            _ = try media.extractTracks(path: FilePath(movie), size: size + 1, jobs: jobs, timeout: 60)
            Issue.record("a file of another size extracted")
        } catch MediaError.sourceChanged {
        } catch { Issue.record("wrong size: \(error)") }
        do {
            _ = try media.extractTracks(path: FilePath(movie), size: size, jobs: jobs, timeout: 1e-9)
            Issue.record("no time out")
        } catch MediaError.timedOut {
        } catch { Issue.record("no time: \(error)") }
        let notes = try TestMedia.file("notes.txt").path
        do {
            _ = try media.extractTracks(path: FilePath(notes), size: try TrackExtractionTests.size(notes), jobs: jobs, timeout: 60)
            Issue.record("text extracted")
        } catch MediaError.notMedia {
        } catch { Issue.record("not media: \(error)") }
        // A file that cannot be written fails its job alone (the tree makes the folders, and throws
        // when it cannot: `TrackPlanJobsTests`).
        let unwritable = TestJobs.jobs(for: info, into: "/dev/null/tracks")
        let results = try media.extractTracks(path: FilePath(movie), size: size, jobs: unwritable, timeout: 60)
        #expect(results.count == unwritable.count)
        for result in results {
            guard case .output? = result.error else {
                Issue.record("unwritable \(result.job.path): \(result.outcome)")
                continue
            }
        }
        #expect(leftovers(in: folder.path).isEmpty)
    }

    @Test func alternativeVideoStreamsAreRemuxed() throws {
        let folder = try TempFolder("angles")
        defer { folder.remove() }
        let source = folder.path("angles.mkv")
        let made = try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=s=64x36:r=10:d=1",
            "-f", "lavfi", "-i", "testsrc2=s=96x54:r=10:d=1", "-f", "lavfi", "-i", "sine=d=1",
            "-map", "0:v", "-map", "1:v", "-map", "2:a", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac",
            "-metadata:s:v:0", "language=eng", "-metadata:s:v:1", "language=eng", "-metadata:s:v:1", "title=Angle 2",
            "-disposition:v:0", "default", "-disposition:v:1", "0", source,
        ], timeout: 60)
        try #require(made.succeeded, "\(made)")
        let (info, size) = try probe(source)
        // Their names (`eng English H.264 64x36 (default).mkv`, …) are the tree's: `TrackNamingTests`.
        let visual = TestJobs.jobs(for: info, into: folder.path("out")).filter { $0.output == .videoMatroska }
        #expect(visual.map(\.streamIndex) == [0, 1])
        let results = try media.extractAllTracks(path: source, size: size, info: info, into: folder.path("out"))
        for (result, width) in zip(results.filter { $0.group == "visual" }, [64, 96]) {
            let track = try #require(result.track)
            let streams = try FFprobe.streams(track.path.string)
            #expect(streams.count == 1)
            #expect(streams.first?["codec_name"] as? String == "h264")
            #expect(streams.first?["width"] as? Int == width)
            #expect(try FFprobe.packets(track.path.string, stream: 0).count == 10)
        }
    }
}
