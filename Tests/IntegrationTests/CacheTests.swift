import Foundation
import Glibc
import Testing
import TestSupport

/// The cache folder across real mounts: probes and thumbnails kept by one mount serve the next,
/// damaged or unfinished entries are never served, and `mediafs cache stats|clear`.
@Suite(.mounts) struct CacheTests {
    /// Mounts `source` on `folder/<name>` with the cache folder `cache`, runs `body`, ends the
    /// mount as `ending` says (by default unmounted and checked).
    static func mounted<T>(_ folder: TempFolder, _ source: String, cache: String, _ name: String,
                           ending: Mount.Ending = .unmountChecked, _ body: (Mount) throws -> T) throws -> T {
        let point = try folder.makeFolder(name)
        return try Mount.with(source: source, point: point, log: folder.path("\(name).log"),
                              arguments: ["--cache-dir", cache], ending: ending, body)
    }

    /// Whether strace is installed (it watches which files the daemon opens).
    static let hasStrace = (try? Command.run(["strace", "-V"], timeout: 10))?.succeeded == true

    static func statistics(_ mount: Mount) throws -> [String: Int] {
        let value = try Command.run(["getfattr", "-n", "user.mediafs.stats", "--only-values", mount.point])
        return (try JSONSerialization.jsonObject(with: Data(value.stdout.utf8)) as? [String: Int]) ?? [:]
    }

    static func read(_ mount: Mount, _ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: mount.path(relative)))
    }

    static let thumbs = ["feature-1080p.mp4/thumbs/at-3s.png", "movie-1080p.mkv/thumbs/at-25%.png",
                         "clips/clip-vp9.webm/thumbs/near-1s@full.png"]

    /// The second mount answers `ls -lR` from the database (no probe made, no media file opened,
    /// as strace of the daemon shows) and serves the first mount's thumbnails from disk, byte for
    /// byte; a cached file damaged in between is made again and read correctly.
    @Test(.needsRoot(for: "strace attaching to the daemon (ptrace)"),
          .enabled(if: hasStrace, "strace is not installed (Debian: apt-get install strace)"))
    func aRemountAnswersFromTheCache() throws {
        let folder = try TempFolder("cache-remount")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let cache = folder.path("cache")

        var first: [Data] = []
        var firstTime = ""
        let firstListing = try Self.mounted(folder, source, cache: cache, "mnt1") { mount -> (CommandResult, [String]) in
            let trace = try OpenTrace(pid: mount.daemon.pid, log: folder.path("strace1"))
            let listing = try Command.run(["ls", "-lR", mount.point], timeout: 120)
            let opened = trace.stop(under: source)
            first = try Self.thumbs.map { try Self.read(mount, $0) }
            firstTime = try Command.run(["getfattr", "-n", "user.mediafs.time", "--only-values", mount.path(Self.thumbs[2])]).stdout
            let stats = try Self.statistics(mount)
            #expect(stats["probes"] ?? 0 > 10, "\(stats)")
            #expect(stats["thumbnails_made"] == Self.thumbs.count, "\(stats)")
            return (listing, opened)
        }
        expectSuccess(firstListing.0)
        #expect(!firstListing.1.isEmpty, "strace saw the first mount open media files")

        // Damage the first thumbnail's cached file: same length, one byte flipped.
        let files = try FileManager.default.contentsOfDirectory(atPath: cache + "/files").filter { !$0.hasPrefix(".") }
        #expect(files.count == Self.thumbs.count, "\(files)")
        let damagedPNG = first[0]
        let victim = try files.first { name in
            try Data(contentsOf: URL(fileURLWithPath: cache + "/files/" + name)) == damagedPNG
        }
        try #require(victim != nil)
        var bytes = damagedPNG
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: cache + "/files/" + victim!))

        try Self.mounted(folder, source, cache: cache, "mnt2") { mount in
            let trace = try OpenTrace(pid: mount.daemon.pid, log: folder.path("strace2"))
            let started = Date()
            let listing = try Command.run(["ls", "-lR", mount.point], timeout: 120)
            let seconds = Date().timeIntervalSince(started)
            let opened = trace.stop(under: source)
            expectSuccess(listing)
            #expect(listing.stdout == firstListing.0.stdout.replacingOccurrences(of: "mnt1", with: "mnt2"))
            #expect(opened.isEmpty, "the remount opened media files: \(opened)")
            var stats = try Self.statistics(mount)
            #expect(stats["probes"] == 0, "\(stats)")
            #expect(stats["probes_from_database"] ?? 0 > 10, "\(stats)")
            print("ls -lR: first mount \(firstListing.0.seconds) s, remount \(seconds) s")

            let second = try Self.thumbs.map { try Self.read(mount, $0) }
            #expect(second == first, "thumbnails read back from disk are the ones made")
            stats = try Self.statistics(mount)
            #expect(stats["thumbnails_made"] == 1, "only the damaged one is made again: \(stats)")
            #expect(stats["thumbnails_from_disk"] == Self.thumbs.count - 1, "\(stats)")
            #expect(mount.log.contains("is damaged"), "\(mount.log)")
            // The frame's time survives too.
            let time = try Command.run(["getfattr", "-n", "user.mediafs.time", "--only-values", mount.path(Self.thumbs[2])])
            #expect(!firstTime.isEmpty && time.stdout == firstTime, "\(time) vs \(firstTime)")
        }

        // cache stats and clear.
        let stats = try Command.run([Mount.binary, "cache", "stats", "--cache-dir", cache])
        expectSuccess(stats)
        #expect(stats.stdout.contains("made files:      3 entries"), "\(stats.stdout)")
        #expect(stats.stdout.contains("damaged, remade: 1"), "\(stats.stdout)")
        #expect(stats.stdout.contains("hits:            2"), "\(stats.stdout)")
        let clear = try Command.run([Mount.binary, "cache", "clear", "--cache-dir", cache])
        expectSuccess(clear)
        #expect(clear.stdout.contains("3 made files"), "\(clear.stdout)")
        let after = try Command.run([Mount.binary, "cache", "stats", "--cache-dir", cache])
        #expect(after.stdout.contains("made files:      0 entries") && after.stdout.contains("probes kept:     0"), "\(after.stdout)")
        let help = try Command.run([Mount.binary, "cache", "--help"])
        #expect(help.succeeded && help.stdout.contains("stats") && help.stdout.contains("clear"), "\(help)")
        for command in ["stats", "clear"] {
            let result = try Command.run([Mount.binary, "cache", command, "--help"])
            #expect(result.succeeded && result.stdout.contains("--cache-dir"), "\(command): \(result)")
        }
    }

    /// `cache stats` counts the extracted track sets of the folder and `cache clear` removes them.
    @Test func cacheCommandsSeeTrackSets() throws {
        let folder = try TempFolder("cache-tracks")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let cache = folder.path("cache")
        try Self.mounted(folder, source, cache: cache, "mnt") { mount in
            expectSuccess(try Command.shell(#"ls -l "$1"/movie-1080p.mkv/tracks/*/ > /dev/null"#, [mount.point], timeout: 120))
        }
        let stats = try Command.run([Mount.binary, "cache", "stats", "--cache-dir", cache])
        #expect(stats.stdout.contains("track sets:      1 sets"), "\(stats)")
        let clear = try Command.run([Mount.binary, "cache", "clear", "--cache-dir", cache])
        #expect(clear.succeeded && clear.stdout.contains("1 track sets"), "\(clear)")
        let after = try Command.run([Mount.binary, "cache", "stats", "--cache-dir", cache])
        #expect(after.stdout.contains("track sets:      0 sets"), "\(after)")
    }

    /// A daemon killed with SIGKILL while it makes and stores thumbnails, and remounted while it
    /// is still a zombie (not yet reaped: `kill(pid, 0)` succeeds on it, its lock is gone): the
    /// next mount removes what was left unfinished and serves only whole images, the same as a
    /// mount without a cache.
    @Test func aKilledDaemonLeavesNoHalfFileServed() throws {
        let folder = try TempFolder("cache-kill")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let cache = folder.path("cache")
        let names = (0..<24).map { "movie-1080p.mkv/thumbs/at-\($0)s@full.png" }

        let cached = try Self.mounted(folder, source, cache: cache, "mnt1", ending: .byTheTest) { mount in
            let killedPid = mount.daemon.pid
            let readers = try ChildProcess(["/bin/sh", "-c", "for n in \"$@\"; do cat \"$n\" > /dev/null & done; wait", "sh"]
                                           + names.map { mount.path($0) })
            defer { readers.kill9() }
            // Kill once some images are stored, while others are being made and written.
            Wait.until(30, poll: 0.005) { ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/files"))?.count ?? 0) >= 3 }
            mount.daemon.signal(SIGKILL)
            let isZombie = Wait.until(10) { ChildProcess.state(of: killedPid) == "Z" }
            #expect(isZombie, "the killed daemon is a zombie")
            let left = try FileManager.default.contentsOfDirectory(atPath: cache + "/files")
            print("left by the killed daemon: \(left.count) files, \(left.filter { $0.hasPrefix(".tmp-") }.count) unfinished")

            return try Self.mounted(folder, source, cache: cache, "mnt2") { mount in
                let stillZombie = ChildProcess.state(of: killedPid) == "Z"
                #expect(stillZombie, "still a zombie while the next mount opens the cache")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache + "/files")
                    .filter { $0.hasPrefix(".tmp-\(killedPid)-") }
                #expect(leftovers.isEmpty, "unfinished files of the killed daemon remain: \(leftovers)")
                return try names.map { try Self.read(mount, $0) }
            }
        }
        let fresh = try Self.mounted(folder, source, cache: "", "mnt3") { mount in
            try names.map { try Self.read(mount, $0) }
        }
        #expect(cached.count == fresh.count)
        for (i, name) in names.enumerated() where cached[i] != fresh[i] {
            Issue.record("\(name): \(cached[i].count) bytes from the cached mount differ from a fresh mount's \(fresh[i].count)")
        }
    }

    /// A cache folder that cannot be made: a warning, and the mount works from memory.
    @Test func anUnusableCacheFolderStillMounts() throws {
        let folder = try TempFolder("cache-unusable")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let file = folder.path("a-file")
        FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        try Self.mounted(folder, source, cache: file + "/cache", "mnt") { mount in
            expectSuccess(try Command.run(["ls", "-lR", mount.point], timeout: 120))
            expectSuccess(try Command.run(["cat", mount.path(Self.thumbs[0])]))
            #expect(mount.log.contains("warning") && mount.log.contains("memory caching only"), "\(mount.log)")
        }
    }
}

/// `strace -f -e trace=open,openat` attached to a running daemon: which files it opens meanwhile.
final class OpenTrace {
    let process: ChildProcess
    let output: String
    let messages: String

    /// Attaches and returns once strace says it is attached to every thread of the daemon (or
    /// after 10 s).
    init(pid: pid_t, log: String) throws {
        output = log + ".out"
        messages = log + ".err"
        process = try ChildProcess(["/usr/bin/strace", "-f", "-e", "trace=open,openat,openat2", "-o", output, "-p", "\(pid)"],
                                   stderr: .appending(messages))
        Wait.until(10) {
            let text = (try? String(contentsOfFile: messages, encoding: .utf8)) ?? ""
            let attached = text.split(separator: "\n").reduce(0) { $0 + Self.threadsAttached(by: $1) }
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? 0
            return attached > 0 && attached >= threads
        }
    }

    /// The threads a line of strace's messages says it attached to: "strace: Process N attached
    /// with T threads" (what Debian 12's strace 6.1 says for `-p` of a process with more than one
    /// thread) counts T; "strace: Process N attached" (one thread, or a thread made after) one.
    static func threadsAttached(by line: Substring) -> Int {
        if line.hasSuffix(" attached") { return 1 }
        guard line.hasSuffix(" threads"), let with = line.range(of: " attached with ") else { return 0 }
        return Int(line[with.upperBound...].dropLast(" threads".count)) ?? 0
    }

    deinit { process.kill9() }

    /// Detaches; the files under `folder` opened meanwhile that are not folders.
    func stop(under folder: String) -> [String] {
        process.signal(SIGINT)
        process.wait(timeout: 10)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter {
            $0.contains("\"" + folder + "/") && !$0.contains("O_DIRECTORY")
        }
    }
}
