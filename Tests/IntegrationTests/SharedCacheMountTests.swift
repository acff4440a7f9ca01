import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// Two daemons on one cache folder at once (two mounts of one user; two machines over a
/// network file system): no half-written file served, no entry lost, the size bound kept; and
/// `mediafs warm --part`, which splits the warming of a library between them.
@Suite(.mounts) struct SharedCacheMountTests {
    /// A source of the films `films` (relative paths in the test library).
    static func source(in folder: TempFolder, _ films: [String]) throws -> String {
        for film in films {
            try folder.makeFolder("source/" + (film as NSString).deletingLastPathComponent)
            try FileManager.default.copyItem(atPath: try TestMedia.file(film).path, toPath: folder.path("source/" + film))
        }
        return folder.path("source")
    }

    /// Mounts `source` on `folder/<name>` with `arguments` and the cache folder `cache`.
    static func mount(_ folder: TempFolder, _ source: String, cache: String, _ name: String,
                      arguments: [String] = []) throws -> Mount {
        try Mount(source: source, point: try folder.makeFolder(name), log: folder.path(name + ".log"),
                  arguments: arguments + ["--cache-dir", cache])
    }

    /// Reads `names` through `mount` on two threads: the bytes read by name (nil: the read failed).
    static func read(_ mount: Mount, _ names: [String]) -> [String: Data?] {
        let reads = Mutex<[String: Data?]>([:])
        Threads.run(2) { half in
            for (i, name) in names.enumerated() where i % 2 == half {
                let data = try? Data(contentsOf: URL(fileURLWithPath: mount.path(name)))
                reads.withLock { $0[name] = data }
            }
        }
        return reads.withLock { $0 }
    }

    /// Two daemons on one cache folder bounded below what they make read the same and different
    /// thumbnails and tracks at once, the second mounting (and cleaning the folder up) while the
    /// first writes: every read is what a mount without a cache serves, the index and the folders
    /// agree, and the bound holds.
    @Test func twoDaemonsShareOneCacheFolder() throws {
        let folder = try TempFolder("shared-cache")
        defer { folder.remove() }
        let films = ["movie-1080p.mkv", "feature-1080p.mp4", "clips/clip-vp9.webm", "clips/Holiday Café 2021.mp4"]
        let source = try Self.source(in: folder, films)
        let cache = folder.path("cache")
        let bound: Int64 = 3 << 20
        func thumbs(_ film: String) -> [String] { [10, 30, 50, 70, 90].map { "\(film)/thumbs/at-\($0)%.png" } }
        let first = try Self.mount(folder, source, cache: cache, "a", arguments: ["--cache-size", "3M"])
        defer { first.teardown() }
        let tracks = try films.map { try FullCacheTests.tracks(first, $0) }
        // Both read films 0 and 1; each also one of its own.
        let common = thumbs(films[0]) + tracks[0] + thumbs(films[1]) + tracks[1]
        let names = [common + thumbs(films[2]) + tracks[2], tracks[3] + thumbs(films[3]) + common.reversed()]

        let reads = Mutex<[[String: Data?]]>([[:], [:]])
        let second = Mutex<Result<Mount, any Error>?>(nil)
        Threads.run(2) { k in
            if k == 0 {
                let read = Self.read(first, names[0])
                reads.withLock { $0[0] = read }
                return
            }
            // Mounted while the first writes: its clean-up at open runs meanwhile.
            let mounted = Result { try Self.mount(folder, source, cache: cache, "b", arguments: ["--cache-size", "3M"]) }
            second.withLock { $0 = mounted }
            guard case .success(let mount) = mounted else { return }
            let read = Self.read(mount, names[1])
            reads.withLock { $0[1] = read }
        }
        let secondMount = try #require(try second.withLock { $0 }?.get())
        defer { secondMount.teardown() }
        try first.finish()
        try secondMount.finish()

        let fresh = try CacheTests.mounted(folder, source, cache: "", "fresh") { mount in
            Self.read(mount, Array(Set(names[0] + names[1])))
        }
        for (index, read) in reads.withLock({ $0 }).enumerated() {
            #expect(read.count == names[index].count)
            for (name, data) in read where data == nil || data != fresh[name] ?? nil {
                Issue.record("mount \(index + 1), \(name): \(data?.count ?? -1) bytes, without a cache \((fresh[name] ?? nil)?.count ?? -1)")
            }
        }
        let index = try CacheIndex(cache)
        #expect(index.disagreements.isEmpty, "\(index.disagreements)")
        #expect(index.bytes <= bound && index.rows.count > 2, "\(index.bytes) bytes in \(index.rows.count) entries")
        let stats = try Command.run([Mount.binary, "cache", "stats", "--cache-dir", cache])
        #expect(stats.stdout.contains("evicted:") && !stats.stdout.contains("evicted:         0"), "\(stats.stdout)")
    }

    /// `warm --part 1/2` and `--part 2/2` at once, over two mounts sharing one cache folder: each
    /// entry made once, by one of them (their counters), and together what one whole warm makes.
    @Test func warmPartsMakeEachEntryOnce() throws {
        let folder = try TempFolder("warm-parts")
        defer { folder.remove() }
        let films = ["clips/clip-vp9.webm", "clips/Holiday Café 2021.mp4", "clips/clip-hevc10.mkv", "clips/portrait-rotated.mp4"]
        let source = try Self.source(in: folder, films)
        let shared = folder.path("shared-cache")
        let mounts = [try Self.mount(folder, source, cache: shared, "a"), try Self.mount(folder, source, cache: shared, "b")]
        defer { for mount in mounts { mount.teardown() } }
        let warms = try (1...2).map { part in
            try ChildProcess([Mount.binary, "warm", "--part", "\(part)/2", mounts[part - 1].point],
                             stdout: .appending(folder.path("warm\(part).log")), stderr: .appending(folder.path("warm\(part).log")))
        }
        for warm in warms { #expect(warm.wait(timeout: 300) == .exited(0)) }
        let parts = try mounts.map { try CacheTests.statistics($0) }
        for mount in mounts { try mount.finish() }

        let wholeCache = folder.path("whole-cache")
        let whole = try CacheTests.mounted(folder, source, cache: wholeCache, "whole") { mount in
            expectSuccess(try Command.run([Mount.binary, "warm", mount.point], timeout: 300))
            return try CacheTests.statistics(mount)
        }
        // Documents are rendered in memory by every mount that lists a media folder, never kept.
        let made = whole.keys.filter { $0.hasSuffix("_made") && $0 != "documents_made" }
        for key in made {
            #expect(parts[0][key, default: 0] + parts[1][key, default: 0] == whole[key], "\(key): \(parts) vs \(whole)")
        }
        for key in whole.keys where key.hasSuffix("_from_disk") {
            #expect(parts[0][key, default: 0] + parts[1][key, default: 0] == 0, "\(key): \(parts)")
        }
        #expect(parts.allSatisfy { $0["thumbnails_made", default: 0] > 0 }, "both parts hold films: \(parts)")
        let union = Set(try CacheIndex(shared).rows.map(\.key))
        #expect(union == Set(try CacheIndex(wholeCache).rows.map(\.key)), "the parts together are the whole warm")
        #expect(!union.isEmpty)
    }
}
