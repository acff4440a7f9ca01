import Foundation
import Glibc
import GRDB
import Synchronization

/// Track sets in the disk cache: `<cache-dir>/tracks/<name>/`, one folder per pass, indexed in the
/// `file` table (kind `tracks`, size the bytes of its files) and so counted in the same bound and
/// evicted by the same least-recently-used order as made files.
///
/// A pass writes into `.pass-<pid>-<random>/` and the folder is renamed to its name when the pass
/// is over, so a set's name only ever holds a finished pass; its manifest, written afterwards, is
/// what makes it servable (`TrackManifest`). An evicted or damaged set is renamed to
/// `.gone-<pid>-<random>` and then removed, so no reader finds a half-removed set. Files a reader
/// still has open stay readable through their descriptors (Linux keeps an unlinked file's data
/// until its last close), but a set open for reading is passed over by eviction anyway (`pin`),
/// so that what `--cache-size` counts is what the disk holds.
extension DiskCache {
    static let trackSetKind = "tracks"
    static let passPrefix = ".pass-"
    static let gonePrefix = ".gone-"

    /// Makes an empty folder for a pass to write into, beside the sets in `root` (made again if
    /// it was removed).
    /// - Throws: `CacheError.write`.
    static func makePassFolder(in root: String) throws -> String {
        let path = root + "/" + passPrefix + "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        _ = try remakingFolder(root, path: path) { mkdir(path, PrivateFolder.folderMode) }
        return path
    }

    /// Gives the finished pass folder `working` the name `final`, replacing a set of that name.
    /// - Throws: `CacheError.write`.
    static func install(_ working: String, as final: String) throws {
        if access(final, F_OK) == 0 { removeFolder(final) }
        guard rename(working, final) == 0 else {
            let code = errno
            removeFolder(working)
            throw CacheError.write(path: final, code: code)
        }
    }

    /// Renames `path` out of the way (`.gone-<pid>-<random>` beside it), then removes it.
    static func removeFolder(_ path: String) {
        let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let gone = parent + "/" + gonePrefix + "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let target = rename(path, gone) == 0 ? gone : path
        try? FileManager.default.removeItem(atPath: target)
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
        try? database.pool.write { db in try db.execute(sql: "DELETE FROM file WHERE key = ?", arguments: [key]) }
        Self.removeFolder(tracksFolder + "/" + name)
        database.count("file_damaged")
    }

    /// Holds the set `name` out of eviction until the pin is released (a reader has a file open).
    final class Pin: Sendable {
        private let cache: DiskCache
        private let name: String

        fileprivate init(cache: DiskCache, name: String) {
            self.cache = cache
            self.name = name
        }

        deinit { cache.unpin(name) }
    }

    func pin(_ name: String) -> Pin {
        pins.withLock { $0.counts[name, default: 0] += 1 }
        return Pin(cache: self, name: name)
    }

    fileprivate func unpin(_ name: String) {
        let evictNow = pins.withLock { pins -> Bool in
            let left = (pins.counts[name] ?? 1) - 1
            pins.counts[name] = left > 0 ? left : nil
            guard left <= 0, pins.skipped else { return false }
            pins.skipped = false
            return true
        }
        // Not on the releasing thread (libfuse's, answering a release): eviction writes the index
        // and may remove large folders.
        if evictNow { DispatchQueue.global(qos: .utility).async { [self] in evict() } }
    }

    /// At open: removes pass folders of processes that are gone, folders being removed, set
    /// folders the index does not name (a pass cut short by a crash before its set was indexed)
    /// once they are an hour old (a younger one may be another mount's, about to be indexed: two
    /// mounts, or `mediafs cache stats`, may share the folder), and rows whose folder is gone.
    /// - Parameter keepingRecent: false for `clear`, which removes every set folder the index no
    ///   longer names however young.
    func cleanUpTrackSets(keepingRecent: Bool = true) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tracksFolder) else { return }
        let indexed = Set((try? database.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM file WHERE kind = ?", arguments: [Self.trackSetKind])
        }) ?? [])
        var present = Set<String>()
        for name in names {
            let path = tracksFolder + "/" + name
            if name.hasPrefix(Self.passPrefix) || name.hasPrefix(Self.gonePrefix) {
                let prefix = name.hasPrefix(Self.passPrefix) ? Self.passPrefix : Self.gonePrefix
                if Self.writerIsGone(name, prefix: prefix) { try? FileManager.default.removeItem(atPath: path) }
            } else if indexed.contains(name) {
                present.insert(name)
            } else if !keepingRecent || Self.isOlderThanAnyPass(path) {
                // Not indexed: a crash between rename and index, or a set that was never kept. A
                // younger one may be a running mount's (sharing this folder), about to be indexed.
                Self.removeFolder(path)
            }
        }
        let missing = indexed.subtracting(present)
        guard !missing.isEmpty else { return }
        try? database.pool.write { db in
            for name in missing {
                try db.execute(sql: "DELETE FROM file WHERE name = ? AND kind = ?", arguments: [name, Self.trackSetKind])
            }
        }
    }

    /// Whether the folder at `path` was last changed more than an hour ago: longer than a pass
    /// runs, so no mount can still be about to index it.
    static func isOlderThanAnyPass(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return Double(time(nil) - info.st_mtim.tv_sec) > 3600
    }

    /// Eviction's removal of a set folder.
    func removeTrackSetFolder(_ name: String) {
        Self.removeFolder(tracksFolder + "/" + name)
    }
}
