import Foundation
import Glibc
import Testing
import TestSupport

/// Extracted tracks and chapter images in the bounded disk cache, through real mounts: the bound
/// holds with tracks and thumbnails together, a damaged track file is made again, chapter images
/// survive a remount, and a daemon killed mid-pass leaves nothing that is served later.
@Suite(.mounts) struct TrackCacheTests {
    /// Bytes of the made files and track sets in the cache folder (the database is not bounded).
    static func cachedBytes(_ cache: String) throws -> Int {
        let result = try Command.shell(#"cd "$1" && du -sb --apparent-size files tracks | awk '{ s += $1 } END { print s }'"#, [cache])
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static func trackFiles(_ mount: Mount, _ media: String) throws -> [String] {
        try ["audible", "legible"].flatMap { group in
            try FileManager.default.contentsOfDirectory(atPath: mount.path("\(media)/tracks/\(group)")).sorted()
                .map { "\(media)/tracks/\(group)/\($0)" }
        }
    }

    /// A 3 MiB cache: copying every track of three files and a dozen thumbnails keeps the folder
    /// within the bound (once the last reader has closed), and evicts.
    @Test func theBoundHoldsWithTracksAndThumbnails() throws {
        let folder = try TempFolder("trackcache-bound")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let cache = folder.path("cache")
        let bound = 3 << 20
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mnt.log"),
                       arguments: ["--cache-dir", cache, "--cache-size", "3M"]) { mount in
            for media in ["movie-1080p.mkv", "feature-1080p.mp4", "clips/clip-vp9.webm"] {
                for file in try Self.trackFiles(mount, media) { expectSuccess(try Command.run(["cat", mount.path(file)])) }
                for percent in [10, 30, 50, 70] {
                    expectSuccess(try Command.run(["cat", mount.path("\(media)/thumbs/at-\(percent)%@full.png")]))
                }
                var bytes = try Self.cachedBytes(cache)
                // A release after cat may still be on its way.
                try Wait.until(5) {
                    bytes = try Self.cachedBytes(cache)
                    return bytes <= bound
                }
                #expect(bytes <= bound, "\(media): \(bytes) bytes in the cache folder")
            }
        }
        let stats = try Command.run([Mount.binary, "cache", "stats", "--cache-dir", cache])
        #expect(stats.succeeded && stats.stdout.contains("track sets:"), "\(stats)")
        let evicted = stats.stdout.split(separator: "\n").first { $0.hasPrefix("evicted:") }
        #expect(evicted != nil && !evicted!.hasSuffix(" 0"), "\(stats.stdout)")
    }

    /// A track file damaged in the cache (same length, a byte flipped) is not served: its set is
    /// made again and the bytes equal those of a fresh extraction.
    @Test func aDamagedTrackIsMadeAgain() throws {
        let folder = try TempFolder("trackcache-damaged")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let cache = folder.path("cache")
        let name = "movie-1080p.mkv/tracks/audible/" + "deu German Opus stereo [Deutsch].mka"
        let fresh = try CacheTests.mounted(folder, source, cache: cache, "mnt1") { try CacheTests.read($0, name) }
        let copies = try Command.shell(#"find "$1/tracks" -name 'deu German Opus*'"#, [cache]).stdout
            .split(separator: "\n").map(String.init)
        try #require(copies.count == 1, "\(copies)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: copies[0]))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: copies[0]))
        try CacheTests.mounted(folder, source, cache: cache, "mnt2") { mount in
            #expect(try CacheTests.read(mount, name) == fresh)
            let stats = try CacheTests.statistics(mount)
            #expect(stats["track_files_damaged"] == 1 && stats["track_sets_made"] == 1, "\(stats)")
            #expect(mount.log.contains("is damaged"), "\(mount.log)")
        }
    }

    /// Chapter images made from frames are kept on disk: a remount reads them back, makes none.
    @Test func chapterImagesSurviveARemount() throws {
        let folder = try TempFolder("trackcache-chapters")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let cache = folder.path("cache")
        let script = #"cd "$1/feature-1080p.mp4/chapters" && for f in *.png; do cat "$f"; done | cksum"#
        let first = try CacheTests.mounted(folder, source, cache: cache, "mnt1") { mount -> String in
            let sum = try Command.shell(script, [mount.point]).stdout
            #expect(try CacheTests.statistics(mount)["chapter_images_made"] ?? 0 > 0)
            return sum
        }
        try CacheTests.mounted(folder, source, cache: cache, "mnt2") { mount in
            #expect(try Command.shell(script, [mount.point]).stdout == first)
            let stats = try CacheTests.statistics(mount)
            #expect(stats["chapter_images_made"] == 0 && stats["chapter_images_from_disk"] ?? 0 > 0, "\(stats)")
        }
    }

    /// SIGKILL while a pass writes, and a remount while the killed daemon is still a zombie: the
    /// next mount removes the pass's folder and serves tracks equal to a mount without a cache.
    @Test func aDaemonKilledMidPassLeavesNothingServed() throws {
        let folder = try TempFolder("trackcache-kill")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let cache = folder.path("cache")
        let (cached, names) = try CacheTests.mounted(folder, source, cache: cache, "mnt1", ending: .byTheTest) { mount in
            let killedPid = mount.daemon.pid
            let names = try Self.trackFiles(mount, "feature-1080p.mp4")
            let reader = try ChildProcess(["/bin/cat", mount.path(names[0])])
            defer { reader.kill9() }
            Wait.until(30, poll: 0.002) {
                ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/tracks")) ?? []).contains { $0.hasPrefix(".pass-") }
            }
            mount.daemon.signal(SIGKILL)
            let isZombie = Wait.until(10) { ChildProcess.state(of: killedPid) == "Z" }
            #expect(isZombie, "the killed daemon is a zombie")
            return try CacheTests.mounted(folder, source, cache: cache, "mnt2") { mount in
                let left = try FileManager.default.contentsOfDirectory(atPath: cache + "/tracks")
                #expect(!left.contains { $0.hasPrefix(".pass-\(killedPid)-") }, "\(left)")
                return (try names.map { try CacheTests.read(mount, $0) }, names)
            }
        }
        let fresh = try CacheTests.mounted(folder, source, cache: "", "mnt3") { mount in
            try names.map { try CacheTests.read(mount, $0) }
        }
        for (i, name) in names.enumerated() where cached[i] != fresh[i] {
            Issue.record("\(name): \(cached[i].count) bytes after the kill differ from a fresh mount's \(fresh[i].count)")
        }
    }
}
