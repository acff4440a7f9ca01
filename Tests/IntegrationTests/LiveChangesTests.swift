import Foundation
import Glibc
import Testing
import TestSupport

/// Source changes while mounted, through a real mount whose kernel cache time (30 s) is far longer
/// than the 2 s allowed: only the watcher's notifications can make a change show in time. Each
/// check polls with a 2 s deadline from the moment the change is complete, and asserts it held.
@Suite(.mounts) struct LiveChangesTests {
    static let deadline = 2.0

    /// A source folder of the test's own, mounted with a long kernel cache time, torn down afterwards.
    private func withMount(_ name: String, prepare: (String) throws -> Void, _ body: (String, Mount) throws -> Void) throws {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try prepare(source)
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"),
                       arguments: ["--kernel-cache-time", "30"]) { mount in
            // The kernel caches every name and attribute first, as `ls -l` does.
            expectSuccess(try Command.run(["ls", "-lR", point]))
            try body(source, mount)
        }
    }

    /// Makes a video with the ffmpeg command: `seconds` of one colour, `width`x`height`, with a sine
    /// audio stream when `audio`.
    private func makeVideo(_ path: String, color: String, width: Int, height: Int, seconds: Int, audio: Bool = false) throws {
        var arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                         "color=c=\(color):s=\(width)x\(height):r=10:d=\(seconds)"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-c:a", "aac"] }
        arguments += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mp4", path]
        expectSuccess(try Command.run(arguments, timeout: 60), "ffmpeg \(path)")
    }

    /// Polls `check` until it holds or the deadline passes; records an issue naming `what` if it
    /// never held, and returns the seconds it took.
    @discardableResult
    private func within(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                        _ check: () throws -> Bool) rethrows -> Double {
        let start = Date()
        while true {
            if try check() { return Date().timeIntervalSince(start) }
            if Date().timeIntervalSince(start) > Self.deadline {
                Issue.record("\(what): not seen within \(Self.deadline) s", sourceLocation: sourceLocation)
                return Date().timeIntervalSince(start)
            }
            usleep(20_000)
        }
    }

    private func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    private func isFolder(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    private func isGone(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) != 0 && errno == ENOENT
    }

    private func listing(_ folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    @Test func addedRemovedRenamedAndNewFoldersAreSeen() throws {
        try withMount("live-names", prepare: { source in
            try makeVideo(source + "/first.mp4", color: "red", width: 160, height: 120, seconds: 2)
            try "notes\n".write(toFile: source + "/notes.txt", atomically: false, encoding: .utf8)
        }) { source, mount in
            #expect(isFolder(mount.path("first.mp4")) && listing(mount.point) == ["first.mp4", "notes.txt"])
            // Added: written in place by the ffmpeg command.
            try makeVideo(source + "/added.mp4", color: "blue", width: 160, height: 120, seconds: 2)
            within("added video as a folder") {
                isFolder(mount.path("added.mp4")) && exists(mount.path("added.mp4/info.json"))
                    && listing(mount.point).contains("added.mp4")
            }
            // Removed.
            #expect(unlink(source + "/first.mp4") == 0)
            within("removed video gone") { isGone(mount.path("first.mp4")) && !listing(mount.point).contains("first.mp4") }
            // Renamed.
            #expect(rename(source + "/notes.txt", source + "/renamed.txt") == 0)
            within("renamed file under its new name only") {
                isGone(mount.path("notes.txt")) && exists(mount.path("renamed.txt"))
                    && listing(mount.point) == ["added.mp4", "renamed.txt"]
            }
            // A new sub-folder with media in it, moved in whole.
            let outside = source + "/../outside"
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
            try makeVideo(outside + "/inside.mp4", color: "green", width: 160, height: 120, seconds: 2)
            #expect(rename(outside, source + "/Season 2") == 0)
            within("moved-in folder's video") { exists(mount.path("Season 2/inside.mp4/info.json")) }
            // And a file made in a folder made while mounted (the new folder is watched too).
            try FileManager.default.createDirectory(atPath: source + "/Season 2/Extras", withIntermediateDirectories: false)
            expectSuccess(try Command.run(["ls", "-l", mount.path("Season 2/Extras")]))
            try makeVideo(source + "/Season 2/Extras/trailer.mp4", color: "white", width: 160, height: 120, seconds: 2)
            within("video in a new folder") { isFolder(mount.path("Season 2/Extras/trailer.mp4")) }
        }
    }

    /// Duration, stream count and the thumbnail's width and centre colour, as `D S W R,G,B`.
    private func shown(_ mount: Mount, _ name: String) throws -> String {
        let result = try PNGProbe.run(#"""
        import json, sys
        info = json.load(open(sys.argv[1] + "/info.json"))
        width, height, rows = png(sys.argv[1] + "/thumbs/at-0.5s.png")
        r, g, b = rows[height // 2][3 * (width // 2):3 * (width // 2) + 3]
        print(round(info["container"]["duration"]), len(info["streams"]), width,
              "red" if r > 150 and g < 100 else "blue" if b > 150 and r < 100 else "green" if g > 100 and r < 100 else f"{r},{g},{b}")
        """#, [mount.path(name)])
        return result.succeeded ? result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : "error: \(result)"
    }

    @Test func aReplacedVideoShowsOnlyItsNewContent() throws {
        let original = "2 1 160 red"
        try withMount("live-replace", prepare: { source in
            try makeVideo(source + "/film.mp4", color: "red", width: 160, height: 120, seconds: 2)
        }) { source, mount in
            #expect(try shown(mount, "film.mp4") == original)
            // Replaced by a rename over it: another size, colour, duration, and an audio stream.
            let staged = source + "/../staged.mp4"
            try makeVideo(staged, color: "blue", width: 320, height: 240, seconds: 4, audio: true)
            #expect(rename(staged, source + "/film.mp4") == 0)
            var seen: [String] = []
            try within("the renamed-over video's info and thumbnail") {
                let now = try shown(mount, "film.mp4")
                seen.append(now)
                return now == "4 2 320 blue"
            }
            // Once the new content shows, the old never does again.
            #expect(try shown(mount, "film.mp4") == "4 2 320 blue")
            #expect(!seen.drop { $0 != "4 2 320 blue" }.contains(original), "\(seen)")

            // Rewritten in place: truncated, then the new bytes written into the same file.
            try makeVideo(staged, color: "green", width: 240, height: 180, seconds: 3)
            expectSuccess(try Command.shell(#"cat "$1" > "$2""#, [staged, source + "/film.mp4"]))
            try within("the rewritten video's info and thumbnail") { try shown(mount, "film.mp4") == "3 1 240 green" }
            expectSuccess(try Command.run(["cmp", source + "/film.mp4", mount.path("film.mp4/film.mp4")]))
        }
    }

    /// A file replaced by a rename while its old version is still open: the old handle keeps
    /// reading the old bytes, and new opens read the new ones (with passthrough, the kernel refuses
    /// a second backing file for one inode, so such opens go through the daemon).
    @Test func aFileReplacedWhileOpenReadsNewBytesOnNewOpens() throws {
        try withMount("live-replace-open", prepare: { source in
            try "the old version\n".write(toFile: source + "/notes.txt", atomically: false, encoding: .utf8)
        }) { source, mount in
            let result = try Command.python(#"""
            import os, sys, time
            src, mnt = sys.argv[1], sys.argv[2]
            old = open(mnt, "rb")
            assert old.read() == b"the old version\n"
            new = b"the new version, which is longer\n"
            with open(src + ".staged", "wb") as f: f.write(new)
            os.rename(src + ".staged", src)
            deadline = time.time() + 2
            while os.stat(mnt).st_size != len(new) and time.time() < deadline: time.sleep(0.02)
            for _ in range(3):
                with open(mnt, "rb") as f: assert f.read() == new
            old.seek(0)
            assert old.read() == b"the old version\n"
            old.close()
            with open(mnt, "rb") as f: assert f.read() == new
            print("ok")
            """#, [source + "/notes.txt", mount.path("notes.txt")])
            expectSuccess(result)
        }
    }

    @Test func aGrownFileShowsItsNewSizeAndBytes() throws {
        try withMount("live-grow", prepare: { source in
            try "first line\n".write(toFile: source + "/log.txt", atomically: false, encoding: .utf8)
        }) { source, mount in
            #expect(try Command.run(["cat", mount.path("log.txt")]).stdout == "first line\n")
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: source + "/log.txt"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("second line\n".utf8))
            try handle.close()
            within("the grown file's size and bytes") {
                let size = (try? FileManager.default.attributesOfItem(atPath: mount.path("log.txt"))[.size] as? Int) ?? -1
                let bytes = (try? Command.run(["cat", mount.path("log.txt")]).stdout) ?? ""
                return size == 23 && bytes == "first line\nsecond line\n"
            }
        }
    }

    /// A `chmod` or `chown` of a video (attributes only: the same bytes) shows on its folder and
    /// its made files, whose modes follow the video's (`Access`).
    @Test func aChmodOrChownShows() throws {
        try withMount("live-chmod", prepare: { source in
            try makeVideo(source + "/film.mp4", color: "red", width: 160, height: 120, seconds: 2)
        }) { source, mount in
            func modes() -> [String] {
                ["film.mp4", "film.mp4/info.json", "film.mp4/thumbs", "film.mp4/thumbs/at-1s.png"].map { relative in
                    var st = stat()
                    guard stat(mount.path(relative), &st) == 0 else { return "\(relative): \(String(cString: strerror(errno)))" }
                    return "\(String(st.st_mode & 0o7777, radix: 8)) \(st.st_uid):\(st.st_gid)"
                }
            }
            #expect(modes().map { $0.prefix(4) } == ["555 ", "444 ", "555 ", "444 "], "\(modes())")
            #expect(chmod(source + "/film.mp4", 0o640) == 0)
            within("a chmod 640") { modes().allSatisfy { $0.hasPrefix("550 ") || $0.hasPrefix("440 ") } }
            if getuid() == 0 {
                #expect(chown(source + "/film.mp4", 4242, 4343) == 0)
                within("a chown") { modes().allSatisfy { $0.hasSuffix(" 4242:4343") } }
            }
        }
    }

    /// A process whose working folder is a media folder keeps it when the media file changes
    /// (names are expired, not dropped), and sees the change from there.
    @Test func aWorkingFolderInsideAChangedMediaFolderStays() throws {
        try withMount("live-cwd", prepare: { source in
            try makeVideo(source + "/film.mp4", color: "red", width: 320, height: 240, seconds: 3)
        }) { source, mount in
            let check = try Command.python(#"""
            import json, os, subprocess, sys, time
            folder, source = sys.argv[1], sys.argv[2]
            os.chdir(folder + "/film.mp4")
            before = os.getcwd()
            subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                            "color=c=blue:s=320x240:r=10:d=5", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                            "-f", "mp4", source + "/new.mp4"], check=True)
            os.rename(source + "/new.mp4", source + "/film.mp4")
            deadline = time.time() + 2
            while True:
                duration = json.load(open("info.json"))["container"]["duration"]
                if abs(float(duration) - 5) < 0.5 or time.time() > deadline: break
                time.sleep(0.05)
            assert abs(float(duration) - 5) < 0.5, duration
            assert os.getcwd() == before, os.getcwd()
            assert "at-50%.png" in os.listdir("thumbs")
            print("ok")
            """#, [mount.point, source])
            expectSuccess(check)
        }
    }
}
