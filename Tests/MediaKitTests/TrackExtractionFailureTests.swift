import Foundation
import MediaKit
import Testing
import TestSupport

/// Extraction from damaged files, with bad plans and bounds, and of alternative video.
@Suite struct TrackExtractionFailureTests {
    let media = LocalMediaService(probeTimeout: 20)

    func probe(_ path: String) throws -> (info: MediaInfo, size: Int64) {
        let size = try TrackExtractionTests.size(path)
        return (try media.probe(path: path, size: size), size)
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
        let results = try media.extractTracks(path: truncated, size: size, plan: TrackPlan(info: info), into: folder.path, timeout: 60)
        #expect(results.count == 4)
        for result in results {
            let track = try #require(result.track, "\(result.entry.name): \(String(describing: result.error))")
            #expect(track.cutShort != nil)
        }
        // Each audio file is valid, shorter than the source says, and holds what ffmpeg can copy.
        for (n, result) in results.filter({ $0.entry.group == .audible }).enumerated() {
            let path = try #require(result.track).path
            let made = try FFprobe.span(path, stream: 0)
            let copy = folder.path("copy-\(n).mka")
            let ffmpeg = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", truncated, "-map", "0:a:\(n)", "-c", "copy", copy], timeout: 60)
            #expect(ffmpeg.succeeded)
            let reference = try FFprobe.span(copy, stream: 0)
            #expect(made.duration > 5 && made.duration < 25)
            #expect(abs(made.duration - reference.duration) <= reference.frame + 0.001, "\(made) vs ffmpeg \(reference)")
        }
        // The subtitles hold the cues before the cut, as in the whole file.
        let srt = try SubtitleFileParser.srt(try TrackExtractionTests.read(try #require(results.first { $0.entry.output == .subtitleSRT }?.track).path))
        let whole = try SubtitleFileParser.srt(try FFprobe.ffmpegSRT(try TestMedia.file("feature-1080p.mp4").path, subtitle: 0))
        #expect(!srt.isEmpty && srt.count < whole.count)
        #expect(Array(whole.prefix(srt.count)) == srt)
        #expect(leftovers(in: folder.path).isEmpty)
    }

    @Test func entriesThatDoNotFitTheFileFailAlone() throws {
        let movie = try TestMedia.file("movie-1080p.mkv").path
        let (info, size) = try probe(movie)
        let good = TrackPlan(info: info).entries(in: .audible)[0]
        var videoAsAudio = good
        videoAsAudio.streamIndex = 0
        videoAsAudio.name = "video as audio.mka"
        var missing = good
        missing.streamIndex = 99
        missing.name = "missing.mka"
        var audioAsASS = good
        audioAsASS.output = .subtitleASS
        audioAsASS.group = .legible
        audioAsASS.name = "audio.ass"
        let folder = try TempFolder("bad-plan")
        defer { folder.remove() }
        let results = try media.extractTracks(path: movie, size: size, plan: TrackPlan(entries: [videoAsAudio, good, missing, audioAsASS]),
                                              into: folder.path, timeout: 60)
        #expect(results.map(\.entry) == [videoAsAudio, good, missing, audioAsASS])
        #expect(results[1].track != nil)
        for index in [0, 2, 3] {
            guard case .trackUnavailable? = results[index].error else {
                Issue.record("\(results[index].entry.name): \(results[index].outcome)")
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
        let plan = TrackPlan(info: info)
        let folder = try TempFolder("throws")
        defer { folder.remove() }
        do {
            _ = try media.extractTracks(path: movie, size: size + 1, plan: plan, into: folder.path, timeout: 60)
            Issue.record("a file of another size extracted")
        } catch MediaError.sourceChanged {
        } catch { Issue.record("wrong size: \(error)") }
        do {
            _ = try media.extractTracks(path: movie, size: size, plan: plan, into: folder.path, timeout: 1e-9)
            Issue.record("no time out")
        } catch MediaError.timedOut {
        } catch { Issue.record("no time: \(error)") }
        let notes = try TestMedia.file("notes.txt").path
        do {
            _ = try media.extractTracks(path: notes, size: try TrackExtractionTests.size(notes), plan: plan, into: folder.path, timeout: 60)
            Issue.record("text extracted")
        } catch MediaError.notMedia {
        } catch { Issue.record("not media: \(error)") }
        do {
            _ = try media.extractTracks(path: movie, size: size, plan: plan, into: "/dev/null/tracks", timeout: 60)
            Issue.record("wrote under /dev/null")
        } catch MediaError.output {
        } catch { Issue.record("unwritable: \(error)") }
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
        let plan = TrackPlan(info: info)
        #expect(plan.entries(in: .visual).map(\.name) == ["eng English H.264 64x36 (default).mkv", "eng English H.264 96x54 [Angle 2].mkv"])
        let results = try media.extractTracks(path: source, size: size, plan: plan, into: folder.path("out"), timeout: 60)
        for (result, width) in zip(results.filter { $0.entry.group == .visual }, [64, 96]) {
            let track = try #require(result.track)
            let streams = try FFprobe.streams(track.path)
            #expect(streams.count == 1)
            #expect(streams.first?["codec_name"] as? String == "h264")
            #expect(streams.first?["width"] as? Int == width)
            #expect(try FFprobe.packets(track.path, stream: 0).count == 10)
        }
    }
}
