import Foundation
import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Extraction of the fixtures' tracks in one pass, checked with ffprobe and the ffmpeg command.
@Suite struct TrackExtractionTests {
    let media = LocalMediaService(probeTimeout: 20)

    /// Probes `relativePath` of the library and extracts every track (`TestJobs`) into a new folder.
    func extract(_ relativePath: String, timeout: Double = 60) throws -> (source: String, info: MediaInfo, results: [TrackResult], folder: TempFolder) {
        let source = try TestMedia.file(relativePath).path
        let size = try Self.size(source)
        let info = try media.probe(path: FilePath(source), size: size)
        let folder = try TempFolder("tracks")
        let results = try media.extractAllTracks(path: source, size: size, info: info, into: folder.path, timeout: timeout)
        return (source, info, results, folder)
    }

    static func size(_ path: String) throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).int64Value
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    static func read(_ path: FilePath) throws -> String {
        try read(path.string)
    }

    /// The extracted audio file has one stream with the source stream's codec, channels, sample
    /// rate and language, and lasts as long as it within one frame.
    func expectSameAudio(_ result: TrackResult, source: String, info: MediaInfo) throws {
        let track = try #require(result.track, "\(result.job.path): \(String(describing: result.error))")
        let streams = try FFprobe.streams(track.path.string)
        #expect(streams.count == 1)
        let original = try #require(info.streams.first { $0.index == result.job.streamIndex })
        let stream = try #require(streams.first)
        #expect(stream["codec_type"] as? String == "audio")
        #expect(stream["codec_name"] as? String == original.codec)
        #expect(stream["channels"] as? Int == original.channels)
        #expect((stream["sample_rate"] as? String).flatMap(Int.init) == original.sampleRate)
        #expect((stream["tags"] as? [String: String])?["language"] == result.job.language)
        let made = try FFprobe.span(track.path.string, stream: 0)
        let from = try FFprobe.span(source, stream: result.job.streamIndex)
        #expect(abs(made.duration - from.duration) <= from.frame + 0.001, "\(result.job.path): \(made) vs \(from)")
        #expect(abs(made.start - from.start) <= from.frame + 0.001)
        #expect(track.size == (try Self.size(track.path.string)))
    }

    @Test func matroskaAudioIsRemuxedAsItIs() throws {
        let (source, info, results, folder) = try extract("movie-1080p.mkv")
        defer { folder.remove() }
        let audio = results.filter { $0.group == "audible" }
        #expect(audio.count == 3)
        for result in audio { try expectSameAudio(result, source: source, info: info) }
        #expect(results.allSatisfy { $0.track?.cutShort == nil && $0.track?.skippedPackets == 0 })
    }

    @Test func mp4AudioIsRemuxedAsItIs() throws {
        let (source, info, results, folder) = try extract("feature-1080p.mp4")
        defer { folder.remove() }
        let audio = results.filter { $0.group == "audible" }
        #expect(audio.count == 2)
        for result in audio { try expectSameAudio(result, source: source, info: info) }
        #expect(audio.allSatisfy { $0.track?.path == $0.job.path })
    }

    /// Cue texts as scripts/make-media.sh wrote them (small set: one cue every 5 s).
    static let english = "The quick brown fox jumps over the lazy dog."
    static let french = "Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis."

    /// Checks the `.srt` and `.vtt` of a subtitle stream: both parse strictly, their cues have the
    /// timings of the ffmpeg command's own conversion and the texts `expectedText(n)` (n from 1);
    /// in SubRip, `srtText` of that (the SubRip encoder also writes an ASS style's font, size and
    /// colour, which WebVTT cannot say).
    func expectSubtitles(_ results: [TrackResult], stream: Int, subtitle n: Int, source: String,
                         count: Int? = nil, srtText: (String) -> String = { $0 }, expectedText: (Int) -> String) throws {
        let srtResult = try #require(results.first { $0.job.streamIndex == stream && $0.job.output == .subtitleSRT })
        let vttResult = try #require(results.first { $0.job.streamIndex == stream && $0.job.output == .subtitleWebVTT })
        let srt = try SubtitleFileParser.srt(try Self.read(try #require(srtResult.track).path))
        let vtt = try SubtitleFileParser.vtt(try Self.read(try #require(vttResult.track).path))
        let reference = try SubtitleFileParser.srt(try FFprobe.ffmpegSRT(source, subtitle: n))
        #expect(!srt.isEmpty)
        if let count { #expect(srt.count == count) }
        #expect(srt.map(\.start) == reference.map(\.start))
        #expect(srt.map(\.end) == reference.map(\.end))
        #expect(srt.map(\.text) == srt.indices.map { srtText(expectedText($0 + 1)) })
        #expect(vtt.map(\.text) == vtt.indices.map { expectedText($0 + 1) })
        #expect(vtt.map { [$0.start, $0.end] } == srt.map { [$0.start, $0.end] })
        #expect(srtResult.track?.units == srt.count && vttResult.track?.units == vtt.count)
    }

    @Test func matroskaSubtitlesBecomeSRTAndWebVTT() throws {
        let (source, _, results, folder) = try extract("movie-1080p.mkv")
        defer { folder.remove() }
        try expectSubtitles(results, stream: 4, subtitle: 0, source: source, count: 6) { "eng #\($0): \(Self.english)" }
        try expectSubtitles(results, stream: 6, subtitle: 2, source: source, count: 6) { "[beeping] eng SDH #\($0): \(Self.english)" }
        // The forced French ASS track has every third cue, in italics up to the colon; in SubRip,
        // in its style's font and size too.
        try expectSubtitles(results, stream: 5, subtitle: 1, source: source, count: 2,
                            srtText: { #"<font face="DejaVu Sans" size="64">"# + $0 + "</font>" }) {
            "<i>fra #\(3 * $0 - 2) :</i> \(Self.french)"
        }
    }

    @Test func assIsAlsoKeptAsItIs() throws {
        let (source, _, results, folder) = try extract("movie-1080p.mkv")
        defer { folder.remove() }
        let ass = try #require(results.first { $0.job.output == .subtitleASS }?.track)
        let text = try Self.read(ass.path)
        let reference = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", source, "-map", "0:s:1", "-c", "copy",
                                         "-fflags", "+bitexact", "-f", "ass", "-"], timeout: 60)
        #expect(reference.succeeded)
        #expect(text == reference.stdout)
        #expect(text.hasPrefix("[Script Info]"))
        #expect(text.contains("Style: Default,DejaVu Sans,64"))
        #expect(text.contains(#"Dialogue: 0,0:00:02.02,0:00:04.02,Default,,0,0,0,,{\i1}fra #1 :{\i0} "# + Self.french))
    }

    @Test func movTextAndWebVTTSourcesConvert() throws {
        let feature = try extract("feature-1080p.mp4")
        defer { feature.folder.remove() }
        try expectSubtitles(feature.results, stream: 3, subtitle: 0, source: feature.source, count: 6) { "eng #\($0): \(Self.english)" }
        let clip = try extract("clips/clip-vp9.webm")
        defer { clip.folder.remove() }
        try expectSubtitles(clip.results, stream: 2, subtitle: 0, source: clip.source, count: 1) { "eng #\($0): \(Self.english)" }
    }

    @Test func markupEscapesAndLineBreaksSurviveConversion() throws {
        let folder = try TempFolder("special")
        defer { folder.remove() }
        let srt = folder.path("special.srt"), source = folder.path("special.mkv")
        try """
            1
            00:00:01,000 --> 00:00:02,500
            <i>Italic</i> and <b>bold</b>
            fish & chips > 3 < 4

            2
            00:00:03,000 --> 00:00:04,000
            C:\\path\\{braces} 100%


            """.write(toFile: srt, atomically: true, encoding: .utf8)
        let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "anullsrc=d=5", "-i", srt,
                                    "-map", "0", "-map", "1", "-c:a", "aac", "-c:s", "copy", source], timeout: 60)
        try #require(made.succeeded, "\(made)")
        let size = try Self.size(source)
        let results = try media.extractAllTracks(path: source, size: size, info: try media.probe(path: FilePath(source), size: size),
                                                 into: folder.path("out"))
        let ours = try Self.read(try #require(results.first { $0.job.output == .subtitleSRT }?.track).path)
        let vtt = try Self.read(try #require(results.first { $0.job.output == .subtitleWebVTT }?.track).path)
        // The same SubRip as the ffmpeg command's, CR LF between the lines of a cue included; the
        // same WebVTT, which leaves &, < and > as they are.
        #expect(ours.replacingOccurrences(of: "\r\n", with: "\n") == (try FFprobe.ffmpegSRT(source, subtitle: 0)))
        #expect(ours.contains("<i>Italic</i> and <b>bold</b>\r\nfish & chips > 3 < 4\n"))
        #expect(ours.contains(#"C:\path\{braces} 100%"#))
        #expect(vtt.contains("<i>Italic</i> and <b>bold</b>\nfish & chips > 3 < 4\n"))
        let theirs = try FFprobe.ffmpegSubtitles(source, subtitle: 0, codec: "webvtt", output: folder.path("ffmpeg.vtt"))
        #expect(Data(vtt.utf8) == theirs)
    }

    @Test func extractingTwiceGivesTheSameBytes() throws {
        let first = try extract("movie-1080p.mkv")
        defer { first.folder.remove() }
        let second = try extract("movie-1080p.mkv")
        defer { second.folder.remove() }
        #expect(first.results.count == 10)
        for (a, b) in zip(first.results, second.results) {
            let one = try #require(a.track), two = try #require(b.track)
            #expect(one.size == two.size)
            let same = FileManager.default.contentsEqual(atPath: one.path.string, andPath: two.path.string)
            #expect(same, "\(a.job.path) differs between two extractions")
        }
        // Nothing is left under a temporary name.
        for group in ["audible", "legible"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: "\(first.folder.path)/\(group)")
            #expect(!names.contains { $0.hasPrefix(".") })
        }
    }
}
