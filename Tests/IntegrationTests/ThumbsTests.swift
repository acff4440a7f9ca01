import Foundation
import Glibc
import Testing
import TestSupport

/// thumbs/ through a real mount, checked against the frame index every fixture frame carries.
@Suite(.mounts) struct ThumbsTests {
    /// feature-1080p.mp4 (small set): 25 fps, 750 frames, a keyframe every 50 frames.
    @Test func atNamesShowTheFrameAPlayerShows() throws {
        try LibraryMount.with("thumbs-at") { library in
            let thumbs = library.path("feature-1080p.mp4/thumbs")
            // (name, expected frame): on a boundary, between two, 1 ms before one, the start, the
            // last frame (29.96 s), the end of the file, the percentages.
            let cases: [(String, Int)] = [
                ("at-0s.png", 0), ("at-0.02s.png", 0), ("at-0.04s.png", 1), ("at-12.5s.png", 312),
                ("at-12.52s.png", 313), ("at-12.519s.png", 312), ("at-00:00:07.5.png", 187),
                ("at-2s.png", 50), ("at-1.999s.png", 49), ("at-29.96s.png", 749), ("at-29.99s.png", 749),
                ("at-30s.png", 749), ("at-100%.png", 749), ("at-50%.png", 375), ("at-25%@180h.png", 187),
                ("at-0m03.3s.png", 82),
            ]
            let names = cases.map(\.0)
            let check = try PNGProbe.run(#"""
            import sys
            folder, names = sys.argv[1], sys.argv[2:]
            for name in names:
                print(name, frame_index(f"{folder}/{name}"))
            """#, [thumbs] + names)
            expectSuccess(check)
            let found = Dictionary(uniqueKeysWithValues: check.stdout.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: " ")
                return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
            })
            for (name, frame) in cases {
                #expect(found[name] == frame, "\(name): frame \(String(describing: found[name])), expected \(frame)")
            }
        }
    }

    @Test func nearNamesAreTheNearestKeyframes() throws {
        try LibraryMount.with("thumbs-near") { library in
            let thumbs = library.path("feature-1080p.mp4/thumbs")
            let cases: [(String, Int)] = [("near-0s.png", 0), ("near-2.2s.png", 50), ("near-3.6s.png", 100),
                                          ("near-29.9s.png", 700), ("near-13s.png", 300)]
            let check = try PNGProbe.run(#"""
            import os, sys
            folder, names = sys.argv[1], sys.argv[2:]
            for name in names:
                path = f"{folder}/{name}"
                print(name, frame_index(path), os.getxattr(path, "user.mediafs.keyframe").decode())
            """#, [thumbs] + cases.map(\.0))
            expectSuccess(check)
            for (name, frame) in cases {
                #expect(check.stdout.contains("\(name) \(frame) true\n"), "\(name): \(check.stdout)")
            }
        }
    }

    @Test func imagesLookAsAPlayerShowsThem() throws {
        try LibraryMount.with("thumbs-geometry") { library in
            let check = try PNGProbe.run(#"""
            import sys
            m = sys.argv[1]
            for rel in ["feature-1080p.mp4/thumbs/at-1s.png", "feature-1080p.mp4/thumbs/at-1s@full.png",
                        "feature-1080p.mp4/thumbs/at-1s@100h.png", "feature-1080p.mp4/thumbs/at-1s@200x200.png",
                        "feature-1080p.mp4/thumbs/at-1s@4000w.png",
                        "clips/anamorphic-pal.mpg/thumbs/at-1s@full.png", "clips/anamorphic-pal.mpg/thumbs/at-1s.png",
                        "clips/portrait-rotated.mp4/thumbs/at-1s@full.png", "clips/portrait-rotated.mp4/thumbs/at-1s.png",
                        "clips/clip-hevc10.mkv/thumbs/at-1s.png"]:
                w, h, rows = png(f"{m}/{rel}")
                print(rel, f"{w}x{h}")
            print("hevc10-frame", frame_index(f"{m}/clips/clip-hevc10.mkv/thumbs/at-1s@full.png"))
            """#, [library.mount.point])
            expectSuccess(check)
            let expected = [
                "feature-1080p.mp4/thumbs/at-1s.png 320x180",
                "feature-1080p.mp4/thumbs/at-1s@full.png 640x360",
                "feature-1080p.mp4/thumbs/at-1s@100h.png 178x100",
                "feature-1080p.mp4/thumbs/at-1s@200x200.png 200x113",
                "feature-1080p.mp4/thumbs/at-1s@4000w.png 640x360",  // never enlarged
                "clips/anamorphic-pal.mpg/thumbs/at-1s@full.png 1024x576",  // 720x576 at 64:45
                "clips/anamorphic-pal.mpg/thumbs/at-1s.png 320x180",
                "clips/portrait-rotated.mp4/thumbs/at-1s@full.png 360x640",  // 640x360 turned 90°
                "clips/portrait-rotated.mp4/thumbs/at-1s.png 320x569",
                "clips/clip-hevc10.mkv/thumbs/at-1s.png 320x180",
                "hevc10-frame 25",  // 10-bit decoded and converted right enough to read the strip
            ]
            for line in expected { #expect(check.stdout.contains(line + "\n"), "\(line)\n\(check.stdout)") }
        }
    }

    /// HDR through a real mount: the PQ and HLG clips' `at-1s.png` within
    /// `ToneMapReference.tolerance` (mean absolute difference per channel) of the frame the ffmpeg
    /// command's usual tone-mapping chain makes, far from its plain conversion; `info.json` says
    /// which HDR it is.
    @Test func hdrThumbnailsAreToneMapped() throws {
        let folder = try TempFolder("thumbs-hdr")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let clips = ["hdr-pq.mkv", "hdr-hlg.mkv"]
        for clip in clips {
            try FileManager.default.copyItem(atPath: try TestMedia.file("clips/" + clip).path, toPath: source + "/" + clip)
        }
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log")) { mount in
            for clip in clips {
                let raw = folder.path(clip + ".rgb")
                let read = try PNGProbe.run(#"""
                import json, sys
                image, raw, info = sys.argv[1:4]
                width, height, rows = png(image)
                open(raw, "wb").write(b"".join(bytes(row) for row in rows))
                video = json.load(open(info))["streams"][0]
                print(width, height, frame_index(image), video.get("hdr"), video.get("color_transfer"),
                      video.get("color_primaries"), video.get("color_space"), video.get("color_range"))
                """#, [mount.path(clip + "/thumbs/at-1s.png"), raw, mount.path(clip + "/info.json")])
                expectSuccess(read)
                let (hdr, transfer) = clip == "hdr-pq.mkv" ? ("PQ", "smpte2084") : ("HLG", "arib-std-b67")
                #expect(read.stdout == "320 180 25 \(hdr) \(transfer) bt2020 bt2020nc tv\n", "\(clip): \(read)")

                let thumbnail = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
                let reference = try ToneMapReference.frame(source + "/" + clip, at: 1, width: 320, height: 180)
                let distance = ColorDistance(thumbnail, reference)
                #expect(distance.worstChannel <= ToneMapReference.tolerance, "\(clip): \(distance)")
                let plain = try ToneMapReference.frame(source + "/" + clip, at: 1, width: 320, height: 180, toneMapped: false)
                let far = ColorDistance(thumbnail, plain)
                #expect(far.mean >= ToneMapReference.untoneMappedDistance, "\(clip): \(far)")
            }
        }
    }

    @Test func extendedAttributesTellTheFrame() throws {
        try LibraryMount.with("thumbs-xattr") { library in
            let image = library.path("feature-1080p.mp4/thumbs/at-1.23s.png")
            let dump = expectSuccess(try Command.run(["getfattr", "-d", "--absolute-names", image]))
            #expect(dump.stdout.contains(#"user.mediafs.time="1.2""#), "\(dump)")
            #expect(dump.stdout.contains(#"user.mediafs.requested="1.23""#), "\(dump)")
            #expect(dump.stdout.contains(#"user.mediafs.keyframe="false""#), "\(dump)")
            let key = expectSuccess(try Command.run(["getfattr", "-n", "user.mediafs.keyframe", "--only-values",
                                                     library.path("feature-1080p.mp4/thumbs/at-4s.png")]))
            #expect(key.stdout == "true")
            let percent = expectSuccess(try Command.run(["getfattr", "-n", "user.mediafs.requested", "--only-values",
                                                         library.path("feature-1080p.mp4/thumbs/at-50%.png")]))
            #expect(percent.stdout == "15")
            let none = try Command.run(["getfattr", "-n", "user.other", library.path("feature-1080p.mp4/thumbs/at-4s.png")])
            #expect(none.stderr.contains("No such attribute"), "\(none)")
        }
    }

    @Test func badNamesAndFilesGiveENOENTOrEIO() throws {
        try LibraryMount.with("thumbs-errors") { library in
            let check = try Command.python(#"""
            import errno, os, sys, time
            m = sys.argv[1]
            def code(path):
                try:
                    os.stat(path)
                    with open(path, "rb") as f: f.read()
                    return "ok"
                except OSError as e:
                    return errno.errorcode[e.errno]
            cases = {
                "feature-1080p.mp4/thumbs/at-30.5s.png": "ENOENT",
                "feature-1080p.mp4/thumbs/at-2h.png": "ENOENT",
                "feature-1080p.mp4/thumbs/at-101%.png": "ENOENT",
                "feature-1080p.mp4/thumbs/at-12.5.png": "ENOENT",
                "feature-1080p.mp4/thumbs/at-12.5s.gif": "ENOENT",
                "feature-1080p.mp4/thumbs/middle.png": "ENOENT",
                "feature-1080p.mp4/thumbs/at-1s@0w.png": "ENOENT",
                "audio/audiobook.m4a/thumbs/at-1s.png": "ENOENT",
                "audio/audiobook.m4a/thumbs": "ENOENT",
                "broken/feature-truncated.mp4/thumbs/at-2s.png": "ok",
                "broken/feature-truncated.mp4/thumbs/at-25s.png": "EIO",
            }
            wrong = []
            for rel, expected in cases.items():
                started = time.monotonic()
                got = code(f"{m}/{rel}")
                took = time.monotonic() - started
                if got != expected or took > 30:
                    wrong.append(f"{rel}: {got} after {took:.1f} s, expected {expected}")
            print("\n".join(wrong))
            sys.exit(1 if wrong else 0)
            """#, [library.mount.point], timeout: 200)
            expectSuccess(check)
            // The mount stays up, and the log names the file and the reason.
            expectSuccess(try Command.run(["ls", library.path("broken/feature-truncated.mp4/thumbs")]))
            #expect(library.mount.log.contains("feature-truncated.mp4/thumbs/at-25s.png"), "\(library.mount.log)")
        }
    }

    /// `ls -lR`, `du` and `find -size` over the whole mount make no image; the stats on the mount's
    /// root count every image made.
    @Test func statNeverDecodes() throws {
        try LibraryMount.with("thumbs-stat") { library in
            for command in [["ls", "-lR", library.mount.point], ["du", "-s", library.mount.point],
                            ["find", library.mount.point, "-size", "+1k", "-name", "*.png"]] {
                expectSuccess(try Command.run(command, timeout: 120), "\(command)")
            }
            let stats = try Self.statistics(library)
            #expect(stats["thumbnails_made"] == 0, "\(stats)")
            #expect(stats["probes"] ?? 0 > 0)
            expectSuccess(try Command.run(["cat", library.path("feature-1080p.mp4/thumbs/at-1s.png")]))
            #expect(try Self.statistics(library)["thumbnails_made"] == 1)
        }
    }

    /// Every listed thumbnail copies whole, in time order, with the sizes stat gave before any read.
    @Test func listedThumbsCopyWhole() throws {
        try LibraryMount.with("thumbs-copy") { library in
            let thumbs = library.path("movie-1080p.mkv/thumbs")
            let sizes = expectSuccess(try Command.shell(#"cd "$1" && stat -c '%s %n' -- *.png"#, [thumbs]))
            let target = try library.folder.makeFolder("copied")
            expectSuccess(try Command.shell(#"cp "$1"/*.png "$2"/"#, [thumbs, target], timeout: 180))
            let copied = expectSuccess(try Command.shell(#"cd "$1" && stat -c '%s %n' -- *.png"#, [target]))
            #expect(sizes.stdout == copied.stdout)
            // 30.03 s: a name every second from 0 to 30 s, and the three quarters.
            #expect(sizes.stdout.split(separator: "\n").count == 34)
            let frames = try PNGProbe.run(#"""
            import glob, sys
            names = sorted(glob.glob(sys.argv[1] + "/at-??m??s.png"))
            frames = [frame_index(n) for n in names]
            print(len(frames), frames == sorted(frames), frames[:3])
            """#, [target])
            // 23.976 fps: the frames shown at 0 s, 1 s, 2 s are 0, 23, 47.
            #expect(frames.stdout == "31 True [0, 23, 47]\n", "\(frames)")
        }
    }

    /// 8 readers × 200 names drawn at random from 240, with `ls -lR` running meanwhile: every PNG
    /// valid, and byte-identical to the same name read alone in a fresh mount.
    @Test func concurrentReadersGetIdenticalImages() throws {
        let folder = try TempFolder("thumbs-concurrent")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let names = Self.randomNames(count: 240)
        let namesFile = folder.path("names.txt")
        try names.joined(separator: "\n").write(toFile: namesFile, atomically: true, encoding: .utf8)
        let together = try Mount.with(source: source, point: try folder.makeFolder("mnt1"), log: folder.path("log1")) { mount in
            try PNGProbe.run(#"""
            import hashlib, random, subprocess, sys, threading
            root, names = sys.argv[1], open(sys.argv[2]).read().split("\n")
            results, errors = {}, []
            def reader(seed):
                rng = random.Random(seed)
                for _ in range(200):
                    name = rng.choice(names)
                    try:
                        data = open(f"{root}/{name}", "rb").read()
                        digest = hashlib.sha256(data).hexdigest()
                        if results.setdefault(name, digest) != digest: errors.append(f"differs: {name}")
                    except OSError as e:
                        errors.append(f"{name}: {e}")
            lister = subprocess.Popen(["sh", "-c", f"while :; do ls -lR '{root}' >/dev/null; done"])
            threads = [threading.Thread(target=reader, args=(i,)) for i in range(8)]
            for t in threads: t.start()
            for t in threads: t.join()
            lister.kill()
            for name in results: png(f"{root}/{name}")
            for name, digest in sorted(results.items()): print(name + "\t" + digest)
            for e in errors: print("ERROR", e)
            sys.exit(1 if errors else 0)
            """#, [mount.point, namesFile], timeout: 600)
        }
        expectSuccess(together)
        let digests = together.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            .filter { $0.count == 2 }
        #expect(digests.count > 150)
        let digestsFile = folder.path("digests.txt")
        try digests.map { $0.joined(separator: "\t") }.joined(separator: "\n")
            .write(toFile: digestsFile, atomically: true, encoding: .utf8)
        let alone = try Mount.with(source: source, point: try folder.makeFolder("mnt2"), log: folder.path("log2")) { mount in
            try Command.python(#"""
            import hashlib, sys
            root = sys.argv[1]
            for line in open(sys.argv[2]).read().split("\n"):
                if not line: continue
                name, digest = line.split("\t")
                if hashlib.sha256(open(f"{root}/{name}", "rb").read()).hexdigest() != digest:
                    print("differs alone:", name)
            """#, [mount.point, digestsFile], timeout: 600)
        }
        expectSuccess(alone)
        #expect(alone.stdout.isEmpty, "\(alone.stdout)")
    }

    /// `user.mediafs.stats` of the mount's root, as numbers by name.
    static func statistics(_ library: LibraryMount) throws -> [String: Int] {
        let value = try Command.run(["getfattr", "-n", "user.mediafs.stats", "--only-values", library.mount.point])
        let object = try JSONSerialization.jsonObject(with: Data(value.stdout.utf8)) as? [String: Int]
        return object ?? [:]
    }

    /// Names across two films, every form of the grammar, reproducible.
    static func randomNames(count: Int) -> [String] {
        var generator = SeededGenerator(seed: 42)
        let films = [("feature-1080p.mp4", 30.0), ("movie-1080p.mkv", 30.0)]
        return (0..<count).map { i in
            let (film, duration) = films[i % films.count]
            let t = Double(Int.random(in: 0..<Int(duration * 100), using: &generator)) / 100
            let form = Int.random(in: 0..<6, using: &generator)
            let name: String
            switch form {
            case 0: name = "at-\(t)s.png"
            case 1: name = "near-\(t)s.png"
            case 2: name = "at-\(t)s@180h.png"
            case 3: name = "at-\(Int(t) / 60)m\(Int(t) % 60)s.png"
            case 4: name = "at-\(Int(t * 100 / duration))%.png"
            default: name = "near-\(t)s@160x90.png"
            }
            return "\(film)/thumbs/\(name)"
        }
    }
}
