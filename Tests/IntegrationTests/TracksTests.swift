import Foundation
import Glibc
import Testing
import TestSupport

/// tracks/ through a real mount, with no language preference (folders keep stream order): the
/// files' contents checked with ffprobe and strict subtitle parsers, whole copies with the usual
/// tools, damaged files. The names and groups are the tracks scenarios (TestSupport/Scenarios).
@Suite(.mounts, .sharedLibraryMount("tracks", arguments: ["--languages", ""], prepare: TrackChecks.addTestFiles))
struct TracksTests {
    /// No language preference, so folders keep stream order (the test's environment may set LANG).
    static let plain = ["--languages", ""]

    static let english = "The quick brown fox jumps over the lazy dog."
    static let french = "Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis."

    /// The audio tracks of the fixture library: (media file, name in tracks/audible, source
    /// stream index, codec, channels, language).
    static let audio: [(String, String, Int, String, Int, String)] = [
        ("feature-1080p.mp4", "eng English AAC stereo (default).mka", 1, "aac", 2, "eng"),
        ("feature-1080p.mp4", "spa Spanish AAC stereo.mka", 2, "aac", 2, "spa"),
        ("movie-1080p.mkv", "eng English AAC 5.1 [English 5.1].mka", 1, "aac", 6, "eng"),
        ("movie-1080p.mkv", "fra French AC-3 stereo (default) [Français].mka", 2, "ac3", 2, "fra"),
        ("movie-1080p.mkv", "deu German Opus stereo [Deutsch].mka", 3, "opus", 2, "deu"),
        ("clips/clip-vp9.webm", "eng English Opus mono.mka", 1, "opus", 1, "eng"),
        ("clips/Holiday Café 2021.mp4", "und Undetermined AAC stereo (default).mka", 1, "aac", 2, "und"),
    ]

    /// Each audio file is that stream alone, remuxed: ffprobe sees the codec, channels and language
    /// of the source stream, and a duration within one audio frame of the source stream's.
    @Test func audioTracksAreTheirSourceStreams() throws {
        let library = try LibraryMount.shared
        for (media, name, index, codec, channels, language) in Self.audio {
            let track = library.path(media + "/tracks/audible/" + name)
            let streams = try FFprobe.streams(track)
            #expect(streams.count == 1, "\(name): \(streams.count) streams")
            let stream = try #require(streams.first)
            #expect(stream["codec_type"] as? String == "audio" && stream["codec_name"] as? String == codec, "\(name): \(stream)")
            #expect(stream["channels"] as? Int == channels, "\(name): \(stream)")
            #expect((stream["tags"] as? [String: Any])?["language"] as? String ?? "und" == language, "\(name): \(stream)")
            let source = try FFprobe.span(library.source + "/" + media, stream: index)
            let made = try FFprobe.span(track, stream: 0)
            #expect(abs(source.duration - made.duration) <= source.frame + 0.001, "\(name): \(made.duration) s, source \(source.duration) s")
            let duration = Double(try FFprobe.format(track)["duration"] as? String ?? "") ?? -1
            #expect(abs(duration - (source.start + source.duration)) <= source.frame + 0.001, "\(name): \(duration) s")
        }
    }

    /// The subtitle files parse strictly, and carry the cues scripts/make-media.sh put in (small
    /// set: cue N from 2 + 5(N-1) s for 2 s), with the ffmpeg command's own timings.
    @Test func subtitlesCarryTheCuesTheFixturePutIn() throws {
        let library = try LibraryMount.shared
        let mount = library.client
        func check(_ media: String, _ base: String, _ n: Int, _ texts: [String], _ numbers: [Int], spacing: Int = 5000,
                   length: Int = 2000, srtText: (String) -> String = { $0 }) throws {
            let folder = media + "/tracks/legible/"
            let srt = try TrackChecks.srt(try mount.read(folder + base + ".srt"), base + ".srt")
            let vtt = try TrackChecks.vtt(try mount.read(folder + base + ".vtt"), base + ".vtt")
            #expect(vtt.map { [$0.start, $0.end] } == srt.map { [$0.start, $0.end] }, "\(base): the WebVTT timings differ from the SubRip ones")
            #expect(vtt.map(\.text) == texts, "\(base)")
            #expect(srt.map(\.text) == texts.map(srtText), "\(base)")
            for (cue, number) in zip(srt, numbers) {
                let wanted = spacing > 0 ? 2000 + (number - 1) * spacing : 0
                #expect(abs(cue.start - wanted) <= 50 && abs(cue.end - cue.start - length) <= 1, "\(base): \(cue), wanted \(wanted)")
            }
            let reference = try SubtitleFileParser.srt(try FFprobe.ffmpegSRT(library.source + "/" + media, subtitle: n))
            #expect(srt.map { [$0.start, $0.end] } == reference.map { [$0.start, $0.end] }, "\(base): timings \(srt) vs ffmpeg \(reference)")
        }
        let six = Array(1...6)
        try check("feature-1080p.mp4", "eng English Timed Text (default)", 0, six.map { "eng #\($0): \(Self.english)" }, six)
        try check("movie-1080p.mkv", "eng English SRT", 0, six.map { "eng #\($0): \(Self.english)" }, six)
        // SubRip also says the ASS style's font and size, which WebVTT cannot.
        try check("movie-1080p.mkv", "fra French ASS (forced) [Français (forcé)]", 1, [1, 4].map { "<i>fra #\($0) :</i> \(Self.french)" },
                  [1, 4], srtText: { "<font face=\"DejaVu Sans\" size=\"64\">\($0)</font>" })
        try check("movie-1080p.mkv", "eng English SRT (SDH) [English SDH]", 2, six.map { "[beeping] eng SDH #\($0): \(Self.english)" }, six)
        // The 3 s clip is shorter than one cue's slot: one cue over the whole clip.
        try check("clips/clip-vp9.webm", "eng English WebVTT", 0, ["eng #1: \(Self.english)"], [1], spacing: 0, length: 3000)
        // ASS is also given as it is: header and events, the styling tags kept.
        let ass = String(decoding: try mount.read("movie-1080p.mkv/tracks/legible/fra French ASS (forced) [Français (forcé)].ass"), as: UTF8.self)
        #expect(ass.hasPrefix("[Script Info]") && ass.contains("[Events]"), "\(ass.prefix(200))")
        let dialogue = ass.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("Dialogue:") }
        #expect(dialogue.count == 2 && dialogue[0].contains("{\\i1}fra #1 :{\\i0} " + Self.french), "\(dialogue)")
    }

    /// Whole files with cp, rsync and Python, and the same bytes on every read.
    @Test func wholeFilesThroughCpRsyncPythonAndCmp() throws {
        let library = try LibraryMount.shared
        let tracks = library.path("movie-1080p.mkv/tracks")
        let copies = [
            ("cp", ["cp", "-r", tracks, library.folder.path("cp")]),
            ("rsync", ["rsync", "-a", tracks + "/", library.folder.path("rsync")]),
            ("python", [Command.pythonPath, "-c", "import shutil, sys; shutil.copytree(sys.argv[1], sys.argv[2])",
                        tracks, library.folder.path("python")]),
        ]
        for (name, arguments) in copies {
            expectSuccess(try Command.run(arguments, timeout: 120), name)
            expectSuccess(try Command.run(["diff", "-r", "-q", tracks, library.folder.path(name)]), name)
        }
        let mount = library.client
        var count = 0
        for group in try mount.sortedNames("movie-1080p.mkv/tracks").filter { !MediaFolderLayout.isMarker($0) } {
            for name in try mount.sortedNames("movie-1080p.mkv/tracks/" + group) {
                let path = "movie-1080p.mkv/tracks/\(group)/\(name)"
                let first = try mount.read(path), second = try mount.read(path)
                #expect(first == second, "\(path): two reads differ")
                let size = try mount.stat(path).size
                #expect(Int64(first.count) == size && size > 0, "\(path): stat \(size), read \(first.count)")
                let copy = Array(try Data(contentsOf: URL(fileURLWithPath: library.folder.path("cp/\(group)/\(name)"))))
                #expect(copy == first, "\(path): the copy differs")
                count += 1
            }
        }
        #expect(count == 10)
        for relative in ["audible/deu German Opus stereo [Deutsch].mka", "legible/eng English SRT.vtt"] {
            expectSuccess(try Command.run(["cmp", "--", tracks + "/" + relative, library.folder.path("rsync/" + relative)]))
            expectSuccess(try Command.shell(#"cat "$1" > "$2" && cmp "$1" "$2""#, [tracks + "/" + relative, library.folder.path("read")]))
        }
    }

    /// Damaged files: the tracks that could be made are whole, up to the damage; the others give
    /// EIO with a log line naming the file, the track and why; the mount stays up.
    @Test func damagedFilesGiveWholeTracksOrEIO() throws {
        let library = try LibraryMount.shared
        let mount = library.client
        /// The whole file, read as long as stat says.
        func whole(_ path: String) throws -> [UInt8] {
            let size = try mount.stat(path).size
            let bytes = try mount.read(path)
            #expect(Int64(bytes.count) == size, "\(path): stat \(size), read \(bytes.count)")
            return bytes
        }
        // The MP4 cut at 45%: every track holds what comes before the cut, as a valid file.
        let cut = "broken/feature-truncated.mp4/tracks/"
        for name in ["eng English AAC stereo (default).mka", "spa Spanish AAC stereo.mka"] {
            _ = try whole(cut + "audible/" + name)
            let duration = Double(try FFprobe.format(library.path(cut + "audible/" + name))["duration"] as? String ?? "") ?? -1
            #expect(duration > 5 && duration < 20, "\(name): \(duration) s")
        }
        let cues = try TrackChecks.srt(try whole(cut + "legible/eng English Timed Text (default).srt"), "the cut film's SubRip")
        #expect(cues.count >= 1 && cues.count < 6 && cues[0].text.hasPrefix("eng #1: "), "\(cues)")
        // The MKV cut before its first subtitle: the audio is whole up to the cut, the subtitles EIO.
        let movie = "broken/movie-cut.mkv/tracks/"
        for name in try mount.names(movie + "audible") {
            _ = try whole(movie + "audible/" + name)
            #expect(try !FFprobe.streams(library.path(movie + "audible/" + name)).isEmpty, "\(name)")
        }
        let legible = try mount.names(movie + "legible")
        #expect(legible.count == 7, "\(legible)")
        for name in legible {
            #expect(mount.failure { () throws(CallError) in try mount.read(movie + "legible/" + name) } == EIO, "\(name)")
        }
        #expect(throws: Never.self) { try mount.stat("") }
        #expect(try mount.read("notes.txt") == Array(try Data(contentsOf: URL(fileURLWithPath: library.source + "/notes.txt"))))
        let log = library.mount.log
        #expect(log.contains("broken/movie-cut.mkv/tracks/legible/eng English SRT.srt: no track from stream 4: the file is damaged before any of its data"),
                "\(log.suffix(3000))")
        #expect(log.contains("broken/feature-truncated.mp4/tracks/audible/spa Spanish AAC stereo.mka holds what comes before the damage"))
    }
}
