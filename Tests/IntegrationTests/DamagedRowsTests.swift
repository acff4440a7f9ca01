import Foundation
import Testing
import TestSupport

/// Rows of the cache folder's database changed while unmounted (one digit, which SQLite's own
/// checks pass): never served through a mount, but probed and learnt again.
@Suite(.mounts) struct DamagedRowsTests {
    /// Adds 1 to the first number after `field` in every fact of the `version` table holding it
    /// (its probe, chapters, listing facts); how many facts it changed.
    static func bump(_ field: String, in cache: String) throws -> Int {
        let script = #"""
            import re, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            changed = 0
            for device, inode, size, mtime, probe, chapters, listing in db.execute(
                    "SELECT device, inode, size, mtime_ns, probe, chapters, listing FROM version").fetchall():
                for column, value in (("probe", probe), ("chapters", chapters), ("listing", listing)):
                    if value is None: continue
                    text = bytes(value).decode()
                    new = re.sub(re.escape(sys.argv[2]) + r'(\d+)', lambda m: sys.argv[2] + str(int(m.group(1)) + 1), text, count=1)
                    if new != text:
                        db.execute(f"UPDATE version SET {column} = ? WHERE device = ? AND inode = ? AND size = ? AND mtime_ns = ?",
                                   (new.encode(), device, inode, size, mtime))
                        changed += 1
            db.commit()
            print(changed)
            """#
        let result = try Command.run(["python3", "-c", script, cache + "/probes.sqlite", field])
        expectSuccess(result)
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// A width in a probe row and a document's length in the listing facts, each one more: the
    /// remount serves `info.json` as a mount without a cache does, its size exact, and says so once.
    @Test func aChangedRowIsProbedAgain() throws {
        let folder = try TempFolder("damaged-rows")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try TestMedia.file("movie-1080p.mkv").path, toPath: source + "/movie-1080p.mkv")
        let cache = folder.path("cache")
        let info = "movie-1080p.mkv/info.json"
        try CacheTests.mounted(folder, source, cache: cache, "mnt1") { mount in
            expectSuccess(try Command.run(["ls", "-l", mount.path("movie-1080p.mkv")]))
            _ = try CacheTests.read(mount, info)
        }
        #expect(try Self.bump("\"width\":", in: cache) == 1, "the probe's width")
        #expect(try Self.bump("\"info.json\":", in: cache) == 1, "the listing facts' length of info.json")

        let fresh = try CacheTests.mounted(folder, source, cache: "", "fresh") { mount in try CacheTests.read(mount, info) }
        try CacheTests.mounted(folder, source, cache: cache, "mnt2") { mount in
            let size = (try FileManager.default.attributesOfItem(atPath: mount.path(info))[.size] as? NSNumber)?.intValue
            let read = try CacheTests.read(mount, info)
            #expect(read == fresh, "\(String(decoding: read, as: UTF8.self))")
            #expect(size == read.count, "stat says \(size ?? -1), a read gives \(read.count)")
            let warnings = mount.log.split(separator: "\n").filter { $0.contains("probe database is damaged") }
            #expect(warnings.count == 2, "once per row: \(mount.log)")
            let stats = try CacheTests.statistics(mount)
            #expect(stats["probes"] == 1, "probed again: \(stats)")
        }
    }
}
