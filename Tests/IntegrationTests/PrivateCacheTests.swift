import Foundation
import Glibc
import Testing
import TestSupport

/// The cache folder is its owner's alone (it holds what was made from private videos): the folder
/// and every folder in it 0700, every file 0600 (the database, its `-wal` and `-shm`, made images,
/// track sets and their manifests), whatever the umask; a folder an older mediafs left open (0755,
/// files 0644) is made private at mount, with a line in the log.
@Suite(.mounts) struct PrivateCacheTests {
    /// Every entry under `cache` (and itself) whose mode is not 0700 for a folder, 0600 for a file.
    static func openEntries(_ cache: String) -> [String] {
        var open: [String] = []
        var stack = [cache]
        while let path = stack.popLast() {
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            let isFolder = (st.st_mode & S_IFMT) == S_IFDIR
            if st.st_mode & 0o7777 != (isFolder ? 0o700 : 0o600) { open.append("\(path) \(String(st.st_mode & 0o7777, radix: 8))") }
            if isFolder { stack += ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).map { path + "/" + $0 } }
        }
        return open
    }

    /// Every kind of file the cache keeps: the probes of a listing, a made image, a track set (its
    /// files and manifest, written once the pass's answer is out: waited for).
    static func fill(_ mount: Mount, cache: String) throws {
        expectSuccess(try Command.run(["ls", "-lR", mount.point], timeout: 120))
        expectSuccess(try Command.run(["cat", mount.path("movie-1080p.mkv/thumbs/at-3s.png")]))
        expectSuccess(try Command.shell(#"cat "$1"/movie-1080p.mkv/tracks/audible/* > /dev/null"#, [mount.point], timeout: 120))
        Wait.until(30) {
            let sets = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/tracks")) ?? []
            return sets.contains { access(cache + "/tracks/" + $0 + "/manifest.json", F_OK) == 0 }
        }
    }

    @Test func aMountUnderAnOrdinaryUmaskMakesItsCacheFolderPrivate() throws {
        let folder = try TempFolder("private-cache")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try TestMedia.file("movie-1080p.mkv").path, toPath: source + "/movie-1080p.mkv")
        // A parent the mount makes too: only the cache is in it.
        let cache = folder.path("state/cache")
        // The daemon takes the umask it is started with (restored once it is).
        let saved = umask(0o022)
        var restored = false
        defer { if !restored { umask(saved) } }
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: ["--cache-dir", cache]) { mount in
            umask(saved)
            restored = true
            try Self.fill(mount, cache: cache)
            let names = try FileManager.default.contentsOfDirectory(atPath: cache)
            // SQLite's files while the database is open, which it makes with the database's mode.
            #expect(Set(names).isSuperset(of: ["probes.sqlite", "probes.sqlite-wal", "probes.sqlite-shm", "files", "tracks"]), "\(names)")
            #expect(try !FileManager.default.contentsOfDirectory(atPath: cache + "/files").isEmpty)
            #expect(Self.openEntries(cache).isEmpty, "\(Self.openEntries(cache))")
        }
        var st = stat()
        #expect(stat(folder.path("state"), &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(Self.openEntries(cache).isEmpty, "\(Self.openEntries(cache))")
    }

    @Test func aCacheFolderLeftOpenIsMadePrivateAtMount() throws {
        let folder = try TempFolder("private-cache-old")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try TestMedia.file("movie-1080p.mkv").path, toPath: source + "/movie-1080p.mkv")
        let cache = folder.path("cache")
        try Mount.with(source: source, point: try folder.makeFolder("mnt1"), log: folder.path("mediafs1.log"),
                       arguments: ["--cache-dir", cache]) { mount in
            try Self.fill(mount, cache: cache)
        }
        // As an older mediafs left it: folders 0755, files 0644.
        expectSuccess(try Command.run(["chmod", "-R", "u=rwX,go=rX", cache]))
        #expect(Self.openEntries(cache).count > 8, "\(Self.openEntries(cache))")

        try Mount.with(source: source, point: try folder.makeFolder("mnt2"), log: folder.path("mediafs2.log"),
                       arguments: ["--cache-dir", cache]) { mount in
            #expect(Self.openEntries(cache).isEmpty, "\(Self.openEntries(cache))")
            #expect(mount.log.contains("was open to other users: made private"), "\(mount.log)")
            // Still the same cache: the thumbnail comes from it.
            expectSuccess(try Command.run(["cat", mount.path("movie-1080p.mkv/thumbs/at-3s.png")]))
            let stats = try CacheTests.statistics(mount)
            #expect(stats["thumbnails_from_disk"] == 1 && stats["probes"] == 0, "\(stats)")
        }
        // Private already: the next mount says nothing of it.
        try Mount.with(source: source, point: try folder.makeFolder("mnt3"), log: folder.path("mediafs3.log"),
                       arguments: ["--cache-dir", cache]) { mount in
            #expect(!mount.log.contains("open to other users"), "\(mount.log)")
        }
    }

    /// Whatever the umask: `mediafs cache stats` under umask 0 makes the folder it opens private.
    @Test func aFolderMadeUnderAnOpenUmaskIsPrivate() throws {
        let folder = try TempFolder("private-cache-umask")
        defer { folder.remove() }
        let cache = folder.path("cache")
        expectSuccess(try Command.shell(#"umask 0 && exec "$1" cache stats --cache-dir "$2""#, [Mount.binary, cache]))
        let names = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(Set(names).isSuperset(of: ["probes.sqlite", "files", "tracks"]), "\(names)")
        #expect(Self.openEntries(cache).isEmpty, "\(Self.openEntries(cache))")
    }
}
