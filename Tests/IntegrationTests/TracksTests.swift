import Foundation
import Glibc
import Testing
import TestSupport

/// tracks/ through a real mount: names and flags, the files' contents checked with ffprobe and
/// strict subtitle parsers, whole copies with the usual tools, one pass per file, kept on disk.
@Suite(.mounts) struct TracksTests {
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

    @Test func namesFlagsAndGroups() throws {
        try LibraryMount.with("tracks-names", arguments: ["--languages", "fr"], prepare: TrackChecks.addTestFiles) { library in
            func names(_ folder: String, sorted: Bool = true) throws -> [String] {
                let listing = expectSuccess(try Command.run(["ls", sorted ? "-1" : "-1U", "--", library.path(folder)]), folder)
                return listing.stdout.split(separator: "\n").map(String.init)
            }
            #expect(try names("movie-1080p.mkv/tracks") == ["audible", "legible"])  // ls hides the markers
            #expect(try names("movie-1080p.mkv/tracks/audible") == [
                "deu German Opus stereo [Deutsch].mka", "eng English AAC 5.1 [English 5.1].mka",
                "fra French AC-3 stereo (default) [Français].mka",
            ])
            #expect(try names("movie-1080p.mkv/tracks/legible") == [
                "eng English SRT (SDH) [English SDH].srt", "eng English SRT (SDH) [English SDH].vtt",
                "eng English SRT.srt", "eng English SRT.vtt",
                "fra French ASS (forced) [Français (forcé)].ass", "fra French ASS (forced) [Français (forcé)].srt",
                "fra French ASS (forced) [Français (forcé)].vtt",
            ])
            // Folder order (ls -U): by stream, the preferred language (--languages fr) first.
            #expect(try names("movie-1080p.mkv/tracks/audible", sorted: false).map { String($0.prefix(3)) } == ["fra", "eng", "deu"])
            #expect(try names("movie-1080p.mkv/tracks/legible", sorted: false) == [
                "fra French ASS (forced) [Français (forcé)].srt", "fra French ASS (forced) [Français (forcé)].vtt",
                "fra French ASS (forced) [Français (forcé)].ass", "eng English SRT.srt", "eng English SRT.vtt",
                "eng English SRT (SDH) [English SDH].srt", "eng English SRT (SDH) [English SDH].vtt",
            ])
            #expect(try names("feature-1080p.mp4/tracks/audible") == ["eng English AAC stereo (default).mka", "spa Spanish AAC stereo.mka"])
            #expect(try names("feature-1080p.mp4/tracks/legible") == ["eng English Timed Text (default).srt", "eng English Timed Text (default).vtt"])
            #expect(try names("clips/clip-vp9.webm/tracks/legible") == ["eng English WebVTT.srt", "eng English WebVTT.vtt"])
            // Audio without subtitles: audible/ alone. No audio and no subtitles: no tracks/.
            #expect(try names("clips/Holiday Café 2021.mp4/tracks") == ["audible"])
            #expect(try names("clips/silent.mp4") == ["contact-sheet.jpg", "folder.jpg", "info.json", "silent.mp4", "storyboard", "thumbs"])
            let missing = try Command.run(["stat", "--", library.path("clips/silent.mp4/tracks")])
            #expect(missing.stderr.contains("No such file"), "\(missing)")
            // Two video streams: both are angles in visual/, made by a pass of their own.
            #expect(try names("clips/angles.mkv/tracks") == ["audible", "visual"])
            #expect(try names("clips/angles.mkv/tracks/visual") == [
                "und Undetermined H.264 640x360 (default).mkv", "und Undetermined VP9 320x180.mkv",
            ])
            #expect(try TrackChecks.statistics(library.mount.point)["track_sets_made"] == 0, "listing runs no pass")
            expectSuccess(try Command.run(["ls", "-l", library.path("clips/angles.mkv/tracks/audible")]))
            #expect(try TrackChecks.statistics(library.mount.point)["track_sets_made"] == 1)
            let angles = expectSuccess(try TrackChecks.run(#"""
            import sys
            folder = sys.argv[1]
            for name, codec, width in [("und Undetermined H.264 640x360 (default).mkv", "h264", 640),
                                       ("und Undetermined VP9 320x180.mkv", "vp9", 320)]:
                streams = ffprobe(f"{folder}/{name}", "-show_streams")["streams"]
                assert [(s["codec_type"], s["codec_name"], s["width"]) for s in streams] == [("video", codec, width)], streams
            print("ok")
            """#, [library.path("clips/angles.mkv/tracks/visual")]))
            #expect(angles.stdout == "ok\n")
            #expect(try TrackChecks.statistics(library.mount.point)["track_sets_made"] == 2, "visual/ has a pass of its own")
        }
    }

    /// Each audio file is that stream alone, remuxed: ffprobe sees the codec, channels and language
    /// of the source stream, and a duration within one audio frame of the source stream's.
    @Test func audioTracksAreTheirSourceStreams() throws {
        try LibraryMount.with("tracks-audio", arguments: Self.plain) { library in
            var arguments: [String] = []
            for (media, name, index, codec, channels, language) in Self.audio {
                arguments += [library.source + "/" + media, library.path(media + "/tracks/audible/" + name),
                              String(index), codec, String(channels), language]
            }
            let check = try TrackChecks.run(#"""
            import sys
            args = sys.argv[1:]
            for i in range(0, len(args), 6):
                source, track, index, codec, channels, language = args[i:i + 6]
                probed = ffprobe(track, "-show_streams", "-show_format")
                streams = probed["streams"]
                assert len(streams) == 1, f"{track}: {len(streams)} streams"
                s = streams[0]
                assert s["codec_type"] == "audio" and s["codec_name"] == codec, f"{track}: {s['codec_name']}"
                assert s["channels"] == int(channels), f"{track}: {s['channels']} channels"
                assert s.get("tags", {}).get("language", "und") == language, f"{track}: {s.get('tags')}"
                first, last, frame = packet_span(source, index)
                t_first, t_last, _ = packet_span(track, "a:0")
                source_length, track_length = last - first, t_last - t_first
                assert abs(source_length - track_length) <= frame + 0.001, f"{track}: {track_length} s, source {source_length} s"
                assert abs(float(probed["format"]["duration"]) - last) <= frame + 0.001, f"{track}: {probed['format']}"
                print("ok", track.rsplit("/", 1)[1])
            """#, arguments)
            expectSuccess(check)
            #expect(check.stdout.split(separator: "\n").count == Self.audio.count, "\(check.stdout)")
        }
    }

    /// The subtitle files parse strictly, and carry the cues scripts/make-media.sh put in (small
    /// set: cue N from 2 + 5(N-1) s for 2 s), with the ffmpeg command's own timings.
    @Test func subtitlesCarryTheCuesTheFixturePutIn() throws {
        try LibraryMount.with("tracks-subtitles", arguments: Self.plain) { library in
            let check = try TrackChecks.run(#"""
            import subprocess, sys, tempfile
            root, source, english, french = sys.argv[1:5]

            def ffmpeg_srt(media, n):
                with tempfile.NamedTemporaryFile(suffix=".srt") as out:
                    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", f"{source}/{media}", "-map", f"0:s:{n}",
                                    "-c:s", "srt", out.name], check=True, timeout=60)
                    return parse_srt(read(out.name), f"ffmpeg {media} s:{n}")

            def check(media, base, n, texts, numbers, spacing=5000, length=2000, srt_text=lambda text: text):
                folder = f"{root}/{media}/tracks/legible"
                srt = parse_srt(read(f"{folder}/{base}.srt"), base + ".srt")
                vtt = parse_vtt(read(f"{folder}/{base}.vtt"), base + ".vtt")
                assert [c[:2] for c in vtt] == [c[:2] for c in srt], f"{base}: the WebVTT timings differ from the SubRip ones"
                assert [c[2] for c in vtt] == texts, f"{base}: {[c[2] for c in vtt]}"
                assert [c[2] for c in srt] == [srt_text(t) for t in texts], f"{base}: {[c[2] for c in srt]}"
                for (start, end, _), number in zip(srt, numbers):
                    wanted = 2000 + (number - 1) * spacing if spacing else 0
                    assert abs(start - wanted) <= 50 and abs(end - start - length) <= 1, f"{base}: {start}-{end}, wanted {wanted}"
                reference = ffmpeg_srt(media, n)
                assert [c[:2] for c in srt] == [c[:2] for c in reference], f"{base}: timings {srt} vs ffmpeg {reference}"
                print("ok", media, base)

            six = list(range(1, 7))
            check("feature-1080p.mp4", "eng English Timed Text (default)", 0, [f"eng #{n}: {english}" for n in six], six)
            check("movie-1080p.mkv", "eng English SRT", 0, [f"eng #{n}: {english}" for n in six], six)
            # SubRip also says the ASS style's font and size, which WebVTT cannot.
            check("movie-1080p.mkv", "fra French ASS (forced) [Français (forcé)]", 1,
                  [f"<i>fra #{n} :</i> {french}" for n in (1, 4)], [1, 4],
                  srt_text=lambda text: f'<font face="DejaVu Sans" size="64">{text}</font>')
            check("movie-1080p.mkv", "eng English SRT (SDH) [English SDH]", 2, [f"[beeping] eng SDH #{n}: {english}" for n in six], six)
            # The 3 s clip is shorter than one cue's slot: one cue over the whole clip.
            check("clips/clip-vp9.webm", "eng English WebVTT", 0, [f"eng #1: {english}"], [1], spacing=0, length=3000)
            # ASS is also given as it is: header and events, the styling tags kept.
            ass = read(f"{root}/movie-1080p.mkv/tracks/legible/fra French ASS (forced) [Français (forcé)].ass").decode("utf-8")
            assert ass.startswith("[Script Info]") and "[Events]" in ass, ass[:200]
            dialogue = [l for l in ass.splitlines() if l.startswith("Dialogue:")]
            assert len(dialogue) == 2 and "{\\i1}fra #1 :{\\i0} " + french in dialogue[0], dialogue
            print("ok ass")
            """#, [library.mount.point, library.source, Self.english, Self.french])
            expectSuccess(check)
            #expect(check.stdout.split(separator: "\n").count == 6, "\(check.stdout)")
        }
    }

    /// Whole files with cp, rsync and Python, and the same bytes on every read.
    @Test func wholeFilesThroughCpRsyncPythonAndCmp() throws {
        try LibraryMount.with("tracks-copy", arguments: Self.plain) { library in
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
            let check = try TrackChecks.run(#"""
            import os, sys
            tracks, copy = sys.argv[1:3]
            count = 0
            for group in sorted(g for g in os.listdir(tracks) if not g.startswith(".")):
                for name in sorted(os.listdir(f"{tracks}/{group}")):
                    path = f"{tracks}/{group}/{name}"
                    first, second = read(path), read(path)
                    assert first == second, f"{path}: two reads differ"
                    assert len(first) == os.stat(path).st_size > 0, f"{path}: stat {os.stat(path).st_size}, read {len(first)}"
                    assert read(f"{copy}/{group}/{name}") == first, f"{path}: the copy differs"
                    count += 1
            print(count)
            """#, [tracks, library.folder.path("cp")])
            expectSuccess(check)
            #expect(check.stdout == "10\n")
            for relative in ["audible/deu German Opus stereo [Deutsch].mka", "legible/eng English SRT.vtt"] {
                expectSuccess(try Command.run(["cmp", "--", tracks + "/" + relative, library.folder.path("rsync/" + relative)]))
                expectSuccess(try Command.shell(#"cat "$1" > "$2" && cmp "$1" "$2""#, [tracks + "/" + relative, library.folder.path("read")]))
            }
        }
    }

    /// A plain listing runs no pass; sizes run one per file however many ask; a remount on the
    /// same cache folder runs none.
    @Test func onePassPerFileKeptOnDisk() throws {
        let folder = try TempFolder("tracks-passes")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let point = try folder.makeFolder("mnt")
        let arguments = Self.plain + ["--cache-dir", folder.path("cache")]
        let media = ["feature-1080p.mp4", "movie-1080p.mkv", "clips/clip-vp9.webm"]
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), arguments: arguments) { mount in
            // Listing every tracks folder of the library, and find over the whole mount: no pass.
            expectSuccess(try Command.shell(#"cd "$1" && ls */tracks/*/ clips/*/tracks/*/ >/dev/null && find . >/dev/null"#, [point]))
            expectSuccess(try Command.run(["ls", "-R", point]))
            #expect(try TrackChecks.statistics(point)["track_sets_made"] == 0)
            // Eight readers stat'ing every track of the MKV at once: one pass.
            let burst = try Command.python(#"""
            import os, sys, threading
            folder = sys.argv[1]
            names = [f"{folder}/{g}/{n}" for g in os.listdir(folder) if not g.startswith(".") for n in os.listdir(f"{folder}/{g}")]
            sizes, errors = {}, []
            def reader(k):
                try:
                    for name in names[k:] + names[:k]: sizes.setdefault(name, set()).add(os.stat(name).st_size)
                except OSError as e:
                    errors.append(e)
            threads = [threading.Thread(target=reader, args=(k,)) for k in range(8)]
            for t in threads: t.start()
            for t in threads: t.join()
            assert not errors and all(len(s) == 1 for s in sizes.values()), (errors, sizes)
            print(len(sizes))
            """#, [mount.path("movie-1080p.mkv/tracks")])
            expectSuccess(burst)
            #expect(burst.stdout == "10\n")
            #expect(try TrackChecks.statistics(point)["track_sets_made"] == 1)
            for file in media { expectSuccess(try Command.run(["ls", "-l", mount.path(file + "/tracks/audible"), mount.path(file + "/tracks/legible")])) }
            #expect(try TrackChecks.statistics(point)["track_sets_made"] == 3, "one pass per file")
            for file in media { expectSuccess(try Command.run(["ls", "-l", mount.path(file + "/tracks/audible"), mount.path(file + "/tracks/legible")])) }
            let stats = try TrackChecks.statistics(point)
            #expect(stats["track_sets_made"] == 3 && stats["tracks_made"] == 4 + 10 + 3 && stats["track_failures"] == 0, "\(stats)")
        }
        // The same cache folder on the next mount: every size and byte from disk.
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), arguments: arguments) { mount in
            for file in media { expectSuccess(try Command.run(["ls", "-l", mount.path(file + "/tracks/audible"), mount.path(file + "/tracks/legible")])) }
            expectSuccess(try Command.run(["cat", mount.path("movie-1080p.mkv/tracks/audible/deu German Opus stereo [Deutsch].mka")]))
            let stats = try TrackChecks.statistics(point)
            #expect(stats["track_sets_made"] == 0 && stats["track_sets_from_disk"] == 3, "\(stats)")
        }
    }

    /// Damaged files: the tracks that could be made are whole, up to the damage; the others give
    /// EIO with a log line naming the file, the track and why; the mount stays up.
    @Test func damagedFilesGiveWholeTracksOrEIO() throws {
        try LibraryMount.with("tracks-damaged", arguments: Self.plain, prepare: TrackChecks.addTestFiles) { library in
            let check = try TrackChecks.run(#"""
            import errno, os, sys
            root = sys.argv[1]
            def outcome(path):
                try:
                    size = os.stat(path).st_size
                    data = read(path)
                    assert len(data) == size, f"{path}: stat {size}, read {len(data)}"
                    return data
                except OSError as e:
                    return errno.errorcode[e.errno]
            # The MP4 cut at 45%: every track holds what comes before the cut, as a valid file.
            cut = f"{root}/broken/feature-truncated.mp4/tracks"
            for name in ["eng English AAC stereo (default).mka", "spa Spanish AAC stereo.mka"]:
                data = outcome(f"{cut}/audible/{name}")
                assert isinstance(data, bytes), f"{name}: {data}"
                duration = float(ffprobe(f"{cut}/audible/{name}", "-show_format")["format"]["duration"])
                assert 5 < duration < 20, f"{name}: {duration} s"
            cues = parse_srt(outcome(f"{cut}/legible/eng English Timed Text (default).srt"))
            assert 1 <= len(cues) < 6 and cues[0][2].startswith("eng #1: "), cues
            # The MKV cut before its first subtitle: the audio is whole up to the cut, the subtitles EIO.
            movie = f"{root}/broken/movie-cut.mkv/tracks"
            for name in os.listdir(f"{movie}/audible"):
                data = outcome(f"{movie}/audible/{name}")
                assert isinstance(data, bytes) and ffprobe(f"{movie}/audible/{name}", "-show_streams")["streams"], name
            legible = os.listdir(f"{movie}/legible")
            assert len(legible) == 7 and all(outcome(f"{movie}/legible/{n}") == "EIO" for n in legible), legible
            print("ok")
            """#, [library.mount.point])
            expectSuccess(check)
            #expect(check.stdout == "ok\n")
            expectSuccess(try Command.run(["stat", library.mount.point]))
            expectSuccess(try Command.run(["cmp", library.source + "/notes.txt", library.path("notes.txt")]))
            let log = library.mount.log
            #expect(log.contains("broken/movie-cut.mkv/tracks/legible/eng English SRT.srt: no track from stream 4: the file is damaged before any of its data"),
                    "\(log.suffix(3000))")
            #expect(log.contains("broken/feature-truncated.mp4/tracks/audible/spa Spanish AAC stereo.mka holds what comes before the damage"))
        }
    }

    /// A cache folder that cannot be written: a warning, the tracks in a private folder under
    /// /tmp, removed at unmount.
    @Test func anUnwritableCacheFolderFallsBackToAPrivateOne() throws {
        let folder = try TempFolder("tracks-unwritable")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let point = try folder.makeFolder("mnt")
        let mount = try Mount(source: source, point: point, log: folder.path("mediafs.log"),
                              arguments: Self.plain + ["--cache-dir", "/proc/mediafs-cannot-be-here"])
        defer { mount.teardown() }
        let track = mount.path("clips/clip-vp9.webm/tracks/legible/eng English WebVTT.srt")
        let text = expectSuccess(try Command.run(["cat", track])).stdout
        #expect(text.hasPrefix("1\n00:00:00,0") && text.contains("\neng #1: \(Self.english)\n"), "\(text)")
        let line = mount.log.split(separator: "\n").first { $0.contains("cannot be written") }.map(String.init) ?? ""
        let privateFolder = line.components(separatedBy: "tracks are kept in ").last?.components(separatedBy: " until").first ?? ""
        #expect(privateFolder.hasPrefix("/tmp/mediafs-tracks-"), "\(mount.log)")
        #expect(FileManager.default.fileExists(atPath: privateFolder))
        try mount.finish()
        #expect(!privateFolder.isEmpty && !FileManager.default.fileExists(atPath: privateFolder), "removed at unmount")
    }
}
