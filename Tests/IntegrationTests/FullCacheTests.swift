import Foundation
import Glibc
import Testing
import TestSupport

/// A cache folder whose disk refuses writes costs caching, never a file: on a small file system
/// that fills during a mount, and on a read-only one, every read is what a mount without a cache
/// serves (tracks and sidecars go to a private folder, pictures are served from memory), the
/// refusal is logged once, and nothing half-written is indexed or left behind; once space frees,
/// the next pass is kept in the cache folder again.
@Suite(.mounts, .needsRoot(for: "mounting a small tmpfs for the cache folder"))
struct FullCacheTests {
    static let films = ["movie-1080p.mkv", "feature-1080p.mp4", "clips/clip-vp9.webm"]

    /// A source of the three films.
    static func source(in folder: TempFolder) throws -> String {
        let source = try folder.makeFolder("source/clips")
        for film in films {
            try FileManager.default.copyItem(atPath: try TestMedia.file(film).path, toPath: folder.path("source/" + film))
        }
        return (source as NSString).deletingLastPathComponent
    }

    /// The track files of `film`, listed (which runs no pass).
    static func tracks(_ mount: Mount, _ film: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: mount.path(film + "/tracks")).sorted().filter { !$0.hasPrefix(".") }.flatMap { group in
            try FileManager.default.contentsOfDirectory(atPath: mount.path("\(film)/tracks/\(group)")).sorted()
                .map { "\(film)/tracks/\(group)/\($0)" }
        }
    }

    /// What is read of `film`: its track files, thumbnails and sheets.
    static func names(_ mount: Mount, _ film: String) throws -> [String] {
        try tracks(mount, film) + (1...4).map { "\(film)/thumbs/at-\($0)s.png" }
            + ["\(film)/contact-sheet.jpg", "\(film)/storyboard/0001.jpg"]
    }

    /// The sidecar subtitles a server layout mount lists beside its films.
    static func sidecars(_ mount: Mount) throws -> [String] {
        let subtitles: Set<String> = ["srt", "ass", "ssa", "sup", "idx", "sub", "mks"]
        return try FileManager.default.contentsOfDirectory(atPath: mount.point).sorted()
            .filter { subtitles.contains(($0 as NSString).pathExtension) }
    }

    /// How many times the log warns that the cache folder refuses writes.
    static func refusals(_ mount: Mount) -> Int {
        mount.log.split(separator: "\n").filter { $0.contains("warning") && $0.contains("refuses writes") }.count
    }

    @Test func aCacheDiskThatFillsCostsCachingNeverAFile() throws {
        let folder = try TempFolder("full-cache")
        defer { folder.remove() }
        let source = try Self.source(in: folder)
        let disk = try SmallDisk(folder.path("cache"), size: "4m")
        defer { disk.remove() }

        var names: [String] = []
        let cached = try CacheTests.mounted(folder, source, cache: disk.path, "mnt") { mount -> [Data] in
            // Listed (probed, the database written) but nothing made yet.
            expectSuccess(try Command.run(["ls", mount.point, mount.path("clips")]))
            // Room for a picture or two, not for a film's tracks: the disk fills during the reads.
            try disk.fill(leaving: 300 << 10)
            names = try Self.names(mount, Self.films[0]) + Self.names(mount, Self.films[1])
            let read = try names.map { try CacheTests.read(mount, $0) }
            #expect(Self.refusals(mount) == 1, "logged once: \(mount.log)")
            #expect(mount.log.contains("refuses writes: extracted tracks are kept in /tmp/mediafs-tracks-"), "\(mount.log)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/tracks").isEmpty, "no pass left")

            // Space frees: the next pass is kept in the cache folder.
            disk.empty()
            let later = try Self.tracks(mount, Self.films[2])
            names += later
            let readLater = try later.map { try CacheTests.read(mount, $0) }
            let kept = Wait.until(30) {
                ((try? FileManager.default.contentsOfDirectory(atPath: disk.path + "/tracks")) ?? [])
                    .contains { access(disk.path + "/tracks/" + $0 + "/manifest.json", F_OK) == 0 }
            }
            #expect(kept, "the pass after space freed is kept in the cache folder")
            #expect(mount.log.contains("takes writes again: caching resumes"), "\(mount.log)")
            return read + readLater
        }
        let fresh = try CacheTests.mounted(folder, source, cache: "", "fresh") { mount in
            try names.map { try CacheTests.read(mount, $0) }
        }
        for (i, name) in names.enumerated() where cached[i] != fresh[i] {
            Issue.record("\(name): \(cached[i].count) bytes with a full cache differ from a mount without a cache's \(fresh[i].count)")
        }
        let index = try CacheIndex(disk.path)
        #expect(index.disagreements.isEmpty, "\(index.disagreements)")
        // What was kept serves the next mount, byte for byte.
        let again = try CacheTests.mounted(folder, source, cache: disk.path, "again") { mount in
            try names.map { try CacheTests.read(mount, $0) }
        }
        #expect(again == fresh)
    }

    /// The server layout's sidecar subtitles, on a cache disk that is full from the start of the
    /// reads: made in the private folder, the same bytes as without a cache.
    @Test func sidecarsFallBackToo() throws {
        let folder = try TempFolder("full-cache-sidecars")
        defer { folder.remove() }
        let source = try Self.source(in: folder)
        let disk = try SmallDisk(folder.path("cache"), size: "4m")
        defer { disk.remove() }
        let server = ["--layout", "server"]
        func mount<T>(_ name: String, cache: String, _ body: (Mount) throws -> T) throws -> T {
            try Mount.with(source: source, point: try folder.makeFolder(name), log: folder.path(name + ".log"),
                           arguments: server + ["--cache-dir", cache], body)
        }
        var names: [String] = []
        let cached = try mount("mnt", cache: disk.path) { mount -> [Data] in
            names = try Self.sidecars(mount)
            try disk.fill()
            defer { disk.empty() }
            let read = try names.map { try CacheTests.read(mount, $0) }
            #expect(Self.refusals(mount) == 1, "logged once: \(mount.log)")
            return read
        }
        #expect(!names.isEmpty)
        let fresh = try mount("fresh", cache: "") { mount in try names.map { try CacheTests.read(mount, $0) } }
        #expect(cached == fresh, "\(names)")
        #expect(try CacheIndex(disk.path).disagreements.isEmpty)
    }

    /// A cache folder on a read-only file system: the mount serves everything, tracks from a
    /// private folder, with one warning.
    @Test func aReadOnlyCacheFolderStillServes() throws {
        let folder = try TempFolder("readonly-cache")
        defer { folder.remove() }
        let source = try Self.source(in: folder)
        let disk = try SmallDisk(folder.path("cache"), size: "1m", readOnly: true)
        defer { disk.remove() }
        var names: [String] = []
        let cached = try CacheTests.mounted(folder, source, cache: disk.path, "mnt") { mount -> [Data] in
            names = try Self.names(mount, Self.films[0])
            let read = try names.map { try CacheTests.read(mount, $0) }
            let warnings = mount.log.split(separator: "\n").filter { $0.contains("warning") && $0.contains("cache folder") }
            #expect(warnings.count == 1 && warnings[0].contains("memory caching only"), "\(mount.log)")
            #expect(mount.log.contains("no cache folder: extracted tracks are kept in /tmp/mediafs-tracks-"), "\(mount.log)")
            return read
        }
        let fresh = try CacheTests.mounted(folder, source, cache: "", "fresh") { mount in
            try names.map { try CacheTests.read(mount, $0) }
        }
        #expect(cached == fresh)
    }
}
