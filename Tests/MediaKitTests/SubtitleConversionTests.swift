import Foundation
import MediaKit
import SystemPackage
import Testing
import TestSupport

/// The `.srt` and `.vtt` files extraction makes are, byte for byte, what the ffmpeg command makes
/// of the same stream: `ffmpeg -i FILE -map 0:s:N -c:s srt OUT.srt` and `-c:s webvtt OUT.vtt`, run
/// at test time. (Bit-exact flags, `-fflags +bitexact -flags:s +bitexact`, change none of the
/// command's bytes; each comparison checks that too.)
@Suite struct SubtitleConversionTests {
    let media = LocalMediaService(probeTimeout: 20)

    /// What one comparison covered: the source stream's codec and the format compared.
    struct Compared: Hashable, CustomStringConvertible {
        var codec: String
        var output: TrackOutput
        var description: String { "\(codec) → \(TestJobs.fileExtension(of: output))" }
    }

    /// The ffmpeg command's conversion of subtitle stream `n` (as `-map 0:s:N` counts) with the
    /// encoder `codec` into `path` (its extension picks the muxer); its bytes. Also runs it with
    /// bit-exact flags and expects the same bytes.
    static func ffmpeg(_ source: String, subtitle n: Int, codec: String, into path: String) throws -> Data {
        let plain = try FFprobe.ffmpegSubtitles(source, subtitle: n, codec: codec, output: path)
        let bitExact = try FFprobe.ffmpegSubtitles(source, subtitle: n, codec: codec, output: path, bitExact: true)
        #expect(plain == bitExact, "\(source) s:\(n) -c:s \(codec): bit-exact flags changed the ffmpeg command's output")
        return plain
    }

    /// Extracts every track of `source` and compares each `.srt` and `.vtt` with the ffmpeg
    /// command's conversion of its stream; what was compared.
    func expectSameAsFFmpeg(_ source: String) throws -> Set<Compared> {
        let size = try TrackExtractionTests.size(source)
        let info = try media.probe(path: FilePath(source), size: size)
        let folder = try TempFolder("subtitles")
        defer { folder.remove() }
        let results = try media.extractAllTracks(path: source, size: size, info: info, into: folder.path("ours"))
        var compared: Set<Compared> = []
        for result in results where result.job.output == .subtitleSRT || result.job.output == .subtitleWebVTT {
            let track = try #require(result.track, "\(source): \(result.job.path): \(String(describing: result.error))")
            let n = info.streams.filter { $0.kind == .subtitle && $0.index < result.job.streamIndex }.count
            let codec = result.job.output == .subtitleSRT ? "srt" : "webvtt"
            let theirs = try Self.ffmpeg(source, subtitle: n, codec: codec,
                                         into: folder.path("ffmpeg-\(n)\(TestJobs.fileExtension(of: result.job.output))"))
            let ours = try Data(contentsOf: URL(fileURLWithPath: track.path.string))
            #expect(ours == theirs, """
                \(source) s:\(n) \(result.job.path) differs from `ffmpeg -map 0:s:\(n) -c:s \(codec)`:
                ours:
                \(String(decoding: ours.prefix(1500), as: UTF8.self).debugDescription)
                ffmpeg's:
                \(String(decoding: theirs.prefix(1500), as: UTF8.self).debugDescription)
                """)
            #expect(track.size == Int64(ours.count))
            let stream = try #require(info.streams.first { $0.index == result.job.streamIndex })
            compared.insert(Compared(codec: stream.codec ?? "?", output: result.job.output))
        }
        return compared
    }

    /// Every text subtitle stream of the test library (SubRip, ASS with override tags, mov_text,
    /// WebVTT; the MP4 cut at 45% too).
    @Test func everyTextSubtitleStreamOfTheLibrary() throws {
        let library = try TestMedia.library().path
        var compared: Set<Compared> = []
        var files: [String] = []
        for relative in try FileManager.default.subpathsOfDirectory(atPath: library).sorted() {
            let path = library + "/" + relative
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  let size = try? TrackExtractionTests.size(path), size > 0,
                  let info = try? media.probe(path: FilePath(path), size: size),
                  TestJobs.jobs(for: info, into: "/tracks").contains(where: { $0.output == .subtitleSRT }) else { continue }
            files.append(relative)
            compared.formUnion(try expectSameAsFFmpeg(path))
        }
        #expect(files == ["broken/feature-truncated.mp4", "clips/clip-vp9.webm", "feature-1080p.mp4", "movie-1080p.mkv",
                          "series/Season 1/Extras/trailer.webm"])
        #expect(Set(compared.map(\.codec)) == ["ass", "mov_text", "subrip", "webvtt"], "\(compared)")
        #expect(compared.count == 8, "\(compared)")
    }

    /// What the hand-written converter once did by itself, now libavcodec's: ASS override tags
    /// (styles, colours, fonts, alignment, karaoke, drawings, comments, escapes), `\N` and `\n`,
    /// events with no text left, a zero-length event; SubRip markup and characters that are
    /// markup in WebVTT; WebVTT tags and cue settings; mov_text styles. The files start 3.5 s in,
    /// so the cues are shifted by the file's start time, as the ffmpeg command shifts them.
    @Test func stylingLineBreaksAndEmptyEventsConvertAsFFmpegConvertsThem() throws {
        let folder = try TempFolder("subtitle-edges")
        defer { folder.remove() }
        try Self.ass.write(toFile: folder.path("edge.ass"), atomically: true, encoding: .utf8)
        try Self.srt.write(toFile: folder.path("edge.srt"), atomically: true, encoding: .utf8)
        try Self.vtt.write(toFile: folder.path("edge.vtt"), atomically: true, encoding: .utf8)
        let mkv = folder.path("edges.mkv"), mp4 = folder.path("edges.mp4")
        for (output, codecs) in [(mkv, ["-c:s", "copy"]), (mp4, ["-c:s", "mov_text"])] {
            let inputs = output == mkv ? ["edge.ass", "edge.srt", "edge.vtt"] : ["edge.srt"]
            let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "anullsrc=d=12"]
                                       + inputs.flatMap { ["-i", folder.path($0)] }
                                       + ["-map", "0"] + inputs.indices.flatMap { ["-map", "\($0 + 1)"] }
                                       + ["-c:a", "aac"] + codecs + ["-output_ts_offset", "3.5", output], timeout: 60)
            try #require(made.succeeded, "\(made)")
        }
        let compared = try expectSameAsFFmpeg(mkv).union(try expectSameAsFFmpeg(mp4))
        #expect(compared.count == 8, "\(compared)")
        // The ffmpeg command's choices, which the files now share: SubRip breaks lines inside a
        // cue with CR LF; WebVTT leaves &, < and > as they are; an event with no text left is a
        // cue with no text.
        let size = try TrackExtractionTests.size(mkv)
        let results = try media.extractAllTracks(path: mkv, size: size, info: try media.probe(path: FilePath(mkv), size: size),
                                                 into: folder.path("check"))
        let assSRT = try TrackExtractionTests.read(try #require(results.first { $0.job.output == .subtitleSRT }?.track).path)
        #expect(assSRT.hasPrefix("1\n00:00:00,523 --> 00:00:01,523\nLine one\r\nLine two\r\n"))
        #expect(assSRT.contains("\n00:00:06,023 --> 00:00:07,023\n\n\n"))
        let srtVTT = try TrackExtractionTests.read(try #require(results.filter { $0.job.output == .subtitleWebVTT }[1].track).path)
        #expect(srtVTT.contains("fish & chips > 3 < 4"))
    }

    static let ass = #"""
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 360

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0
        Style: Sign,DejaVu Sans,20,&H00FFFF,&Hffffff,&H0,&H0,-1,-1,0,0,100,100,0,0,1,1,0,8,10,10,10,0

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.50,0:00:01.50,Default,,0,0,0,,Line one\NLine two\nsoft\hspace
        Dialogue: 0,0:00:01.00,0:00:02.00,Sign,,0,0,0,,{\pos(10,10)}Overlapping sign & <tag> --> arrow
        Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,{\p1}m 0 0 l 100 0 100 100 0 100{\p0}
        Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\k20}Ka{\k30}ra{\kf40}o{\ko10}ke {a comment} \{braces\}
        Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,{\b1}bold {\i1}both{\b0} italic{\i0} {\u1}under{\u0} {\s1}strike{\s0} {\c&H0000FF&}red{\c} {\fnTimes}font{\fs30}size{\r}reset
        Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,{\an8}top {\b700}heavy{\b0} {\fad(100,100)\blur3\bord2}effects
        Dialogue: 0,0:00:06.00,0:00:07.00,Default,,0,0,0,,
        Dialogue: 0,0:00:07.00,0:00:08.00,Default,,0,0,0,,{\i1}{\i0}
        Dialogue: 0,0:00:08.00,0:00:08.00,Default,,0,0,0,,zero length
        Dialogue: 0,0:00:08.50,0:00:09.50,Default,,0,0,0,,a\N\N\Nb
        Dialogue: 0,0:00:10.00,0:00:11.00,Sign,,0,0,0,,{\i0}upright in an italic style{\r}

        """#

    static let srt = #"""
        1
        00:00:01,000 --> 00:00:02,500
        <i>Italic</i> and <b>bold</b>
        fish & chips > 3 < 4

        2
        00:00:03,000 --> 00:00:04,000
        C:\path\{braces} 100% <font color="#ff0000">red</font> {\an8}top

        3
        00:00:05,000 --> 00:00:07,000
        <u>under</u> <s>strike</s> <i>unclosed
        second line

        """#

    static let vtt = """
        WEBVTT

        00:01.000 --> 00:02.000 align:start position:10%
        <v Roger>Hi</v> <c.yellow>there</c> &amp; &lt;you&gt;

        cue-id
        00:03.000 --> 00:04.500
        <i>a</i> <b>b</b> <u>c</u> <ruby>漢<rt>kan</rt></ruby>
        two lines

        """
}
