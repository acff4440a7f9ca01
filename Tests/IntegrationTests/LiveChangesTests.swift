import Foundation
import Glibc
import Testing
import TestSupport

/// Source changes while mounted, through a real mount whose kernel cache time (30 s) is far longer
/// than the 10 s allowed: only the watcher's notifications can make a change show in time. Each
/// check waits at most 10 s from the moment the change is complete (a loaded machine may take
/// seconds; the kernel alone would take 30), and asserts it held.
@Suite(.mounts) struct LiveChangesTests {
    static let deadline = 10.0

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

    /// Waits until `check` holds, for at most the deadline; records an issue naming `what` if it
    /// never held.
    private func within(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                        _ check: () throws -> Bool) rethrows {
        if try !Wait.until(Self.deadline, poll: 0.02, check) {
            Issue.record("\(what): not seen within \(Self.deadline) s", sourceLocation: sourceLocation)
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

    /// Duration, stream count and the thumbnail's width and centre colour, as `D S W colour`.
    private func shown(_ mount: Mount, _ name: String) -> String {
        do {
            let client = MountedTreeClient(point: mount.point)
            let info = try client.json(name + "/info.json")
            let duration = (info["container"] as? [String: Any])?["duration"] as? Double ?? -1
            let png = try StoredPNG(try client.read(name + "/thumbs/at-0.5s.png"))
            let (r, g, b) = png.pixel(png.width / 2, png.height / 2)
            let colour = r > 150 && g < 100 ? "red" : b > 150 && r < 100 ? "blue" : g > 100 && r < 100 ? "green" : "\(r),\(g),\(b)"
            return "\(Int(duration.rounded())) \((info["streams"] as? [Any])?.count ?? -1) \(png.width) \(colour)"
        } catch {
            return "error: \(error)"
        }
    }

    @Test func aReplacedVideoShowsOnlyItsNewContent() throws {
        let original = "2 1 160 red"
        try withMount("live-replace", prepare: { source in
            try makeVideo(source + "/film.mp4", color: "red", width: 160, height: 120, seconds: 2)
        }) { source, mount in
            #expect(shown(mount, "film.mp4") == original)
            // Replaced by a rename over it: another size, colour, duration, and an audio stream.
            let staged = source + "/../staged.mp4"
            try makeVideo(staged, color: "blue", width: 320, height: 240, seconds: 4, audio: true)
            #expect(rename(staged, source + "/film.mp4") == 0)
            var seen: [String] = []
            within("the renamed-over video's info and thumbnail") {
                let now = shown(mount, "film.mp4")
                seen.append(now)
                return now == "4 2 320 blue"
            }
            // Once the new content shows, the old never does again.
            #expect(shown(mount, "film.mp4") == "4 2 320 blue")
            #expect(!seen.drop { $0 != "4 2 320 blue" }.contains(original), "\(seen)")

            // Rewritten in place: truncated, then the new bytes written into the same file.
            try makeVideo(staged, color: "green", width: 240, height: 180, seconds: 3)
            expectSuccess(try Command.shell(#"cat "$1" > "$2""#, [staged, source + "/film.mp4"]))
            within("the rewritten video's info and thumbnail") { shown(mount, "film.mp4") == "3 1 240 green" }
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
            let (src, mnt) = (source + "/notes.txt", mount.path("notes.txt"))
            let client = MountedTreeClient(point: mount.point)
            let old = open(mnt, O_RDONLY | O_CLOEXEC)
            try #require(old >= 0)
            defer { close(old) }
            let oldBytes = Array("the old version\n".utf8)
            #expect(Self.read(old) == oldBytes)
            let new = "the new version, which is longer\n"
            try new.write(toFile: src + ".staged", atomically: false, encoding: .utf8)
            #expect(rename(src + ".staged", src) == 0)
            Wait.until(Self.deadline, poll: 0.02) { (try? client.stat("notes.txt").size) == Int64(new.utf8.count) }
            for _ in 0..<3 { #expect(try client.read("notes.txt") == Array(new.utf8)) }
            #expect(Self.read(old) == oldBytes, "the old handle reads the old bytes")
            #expect(try client.read("notes.txt") == Array(new.utf8))
        }
    }

    /// The whole file behind `fd`, read from its start.
    private static func read(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bytes.count)) }
            guard count > 0 else { return bytes }
            bytes += buffer[0..<count]
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
            // A process whose working folder is the media folder; the test looks through its eyes
            // (/proc/PID/cwd is that folder, whatever its name now resolves to).
            let holder = try ChildProcess(["sleep", "60"], directory: mount.path("film.mp4"))
            defer { holder.kill9() }
            let cwd = "/proc/\(holder.pid)/cwd"
            let before = try FileManager.default.destinationOfSymbolicLink(atPath: cwd)
            try makeVideo(source + "/new.mp4", color: "blue", width: 320, height: 240, seconds: 5)
            #expect(rename(source + "/new.mp4", source + "/film.mp4") == 0)
            let duration = { () -> Double? in
                let info = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cwd + "/info.json"))) as? [String: Any]
                return (info?["container"] as? [String: Any])?["duration"] as? Double
            }
            within("the new duration, read from the working folder") { abs((duration() ?? 0) - 5) < 0.5 }
            #expect(holder.isRunning)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: cwd) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: cwd + "/thumbs").contains("at-50%.png"))
        }
    }
}
