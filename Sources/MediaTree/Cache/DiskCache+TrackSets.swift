import Foundation
import Glibc
import GRDB
import Synchronization

/// Track sets in the disk cache: `<cache-dir>/tracks/<name>/`, one folder per pass, indexed in the
/// `file` table (kind `tracks`, size the bytes of its files) and so counted in the same bound and
/// evicted by the same least-recently-used order as made files.
///
/// A pass writes into `.pass-<writer>-<random>/` (`WriterLock`) and the folder is renamed to its
/// name when the pass is over, so a set's name only ever holds a finished pass; its manifest,
/// written afterwards, is what makes it servable (`TrackManifest`). An evicted or damaged set is
/// renamed to `.gone-<random>` and then removed, so no reader finds a half-removed set. Files a
/// reader still has open stay readable through their descriptors (Linux keeps an unlinked file's
/// data until its last close), but a set open for reading is passed over by eviction anyway, so
/// that what `--cache-size` counts is what the disk holds: one open in this mount is pinned
/// (`pin`), one open in another mount sharing the folder holds a shared `flock` on the file it
/// reads (`lockForReading`), which eviction tries (`isOpenElsewhere`); over NFS a file removed by
/// one machine while another reads it would fail that read.
extension DiskCache {
    static let trackSetKind = "tracks"
    static let passPrefix = ".pass-"
    static let gonePrefix = ".gone-"

    /// Makes an empty folder of this writer for a pass to write into, beside the sets (the folder
    /// of sets made again if it was removed).
    /// - Throws: `CacheError.write`.
    func makePassFolder() throws -> String {
        try Self.makePassFolder(in: tracksFolder, named: writer.temporaryName(Self.passPrefix))
    }

    /// Makes the empty folder `name` in `root` for a pass to write into (`root` made again if it
    /// was removed).
    /// - Throws: `CacheError.write`.
    static func makePassFolder(in root: String, named name: String) throws -> String {
        let path = root + "/" + name
        _ = try remakingFolder(root, path: path) { mkdir(path, PrivateFolder.folderMode) }
        return path
    }

    /// Gives the finished pass folder `working` the name `final`. Where a set has that name
    /// already (the same pass made by another mount sharing the folder, or a set found incomplete)
    /// it stays if its copies of `files` (paths in the set) hold the same bytes as `working`'s, and
    /// `working` is removed (a mount reading it keeps its files); otherwise it is replaced.
    /// - Throws: `CacheError.write` (`working` is removed).
    static func install(_ working: String, as final: String, files: [String]) throws {
        if rename(working, final) == 0 { return }
        var code = errno
        if code == ENOTEMPTY || code == EEXIST {
            if files.allSatisfy({ FileManager.default.contentsEqual(atPath: working + "/" + $0, andPath: final + "/" + $0) }) {
                removeFolder(working)
                return
            }
            removeFolder(final)
            if rename(working, final) == 0 { return }
            code = errno
        }
        removeFolder(working)
        throw CacheError.write(path: final, code: code)
    }

    /// Renames `path` out of the way (`.gone-<random>` beside it), then removes it.
    static func removeFolder(_ path: String) {
        try? FileManager.default.removeItem(atPath: moveAside(path))
    }

    /// Renames `path` to `.gone-<random>` beside it, so that nothing finds it under its name any
    /// more: its new path (or `path` where it cannot be renamed), to be removed.
    static func moveAside(_ path: String) -> String {
        let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let gone = parent + "/" + gonePrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return rename(path, gone) == 0 ? gone : path
    }

    /// Indexes the set folder `name` of `bytes` as just used (a set made, or found on disk), then
    /// evicts down to the bound. A set larger than the whole bound is not indexed: it is served
    /// this time and removed at the next open of the cache.
    func indexTrackSet(key: String, name: String, bytes: Int64) {
        guard bytes <= capacity else {
            logger.notice("the track set \(tracksFolder)/\(name) (\(bytes) bytes) is larger than the cache's bound: not kept")
            return
        }
        do {
            try database.pool.write { db in
                try db.execute(sql: """
                    INSERT OR REPLACE INTO file (key, name, size, last_use, checksum, meta, kind) VALUES (?, ?, ?, ?, 0, NULL, ?)
                    """, arguments: [key, name, bytes, Self.now(), Self.trackSetKind])
            }
        } catch {
            if let code = DiskRefusals.refusal(in: error) {
                refusals.refused(code, writing: "the index of \(tracksFolder)/\(name)")
            } else {
                logger.warning("cannot index the track set \(tracksFolder)/\(name): \(error)")
            }
            return
        }
        evict(sparing: key)
    }

    /// Marks the set `key` as just used.
    func touchTrackSet(key: String) {
        try? database.pool.write { db in
            try db.execute(sql: "UPDATE file SET last_use = ? WHERE key = ?", arguments: [Self.now(), key])
        }
    }

    /// Forgets the set `key` and removes its folder (a file of it was found damaged).
    func removeTrackSet(key: String, name: String) {
        let moved = try? database.pool.write { db -> String in
            try db.execute(sql: "DELETE FROM file WHERE key = ?", arguments: [key])
            return Self.moveAside(tracksFolder + "/" + name)
        }
        if let moved { try? FileManager.default.removeItem(atPath: moved) }
        database.count("file_damaged")
    }

    /// At open: removes pass folders of writers that are gone (`WriterLock`), folders being
    /// removed, set folders the index does not name (a pass cut short by a crash before its set
    /// was indexed) once they are an hour old (a younger one may be another mount's, about to be
    /// indexed: two mounts, or `mediafs cache stats`, may share the folder), and rows whose folder
    /// is gone; the index read and the folder listed in one write transaction, as for files.
    /// - Parameter keepingRecent: false for `clear`, which removes every set folder the index no
    ///   longer names however young.
    func cleanUpTrackSets(keepingRecent: Bool = true) {
        var removed: [String] = []
        try? database.pool.write { db in
            let indexed = Set(try String.fetchAll(db, sql: "SELECT name FROM file WHERE kind = ?", arguments: [Self.trackSetKind]))
            var present = Set<String>()
            for name in (try? FileManager.default.contentsOfDirectory(atPath: tracksFolder)) ?? [] {
                let path = tracksFolder + "/" + name
                if name.hasPrefix(Self.gonePrefix) {
                    removed.append(path)
                } else if name.hasPrefix(Self.passPrefix) {
                    if writer.isGone(WriterLock.writer(of: name, prefix: Self.passPrefix)) { removed.append(path) }
                } else if indexed.contains(name) {
                    present.insert(name)
                } else if !keepingRecent || Self.isOlderThanAnyPass(path) {
                    // Not indexed: a crash between rename and index, or a set that was never kept.
                    removed.append(Self.moveAside(path))
                }
            }
            for name in indexed.subtracting(present) {
                try db.execute(sql: "DELETE FROM file WHERE name = ? AND kind = ?", arguments: [name, Self.trackSetKind])
            }
        }
        for path in removed { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Whether the folder at `path` was last changed more than an hour ago: longer than a pass
    /// runs, so no mount can still be about to index it.
    static func isOlderThanAnyPass(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return Double(time(nil) - info.st_mtim.tv_sec) > 3600
    }
}
