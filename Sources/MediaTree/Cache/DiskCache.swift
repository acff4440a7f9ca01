import Foundation
import Glibc
import GRDB
import Logging
import Synchronization

/// Made files kept on disk across mounts, under `<cache-dir>/files/`, and the folders of extracted
/// track sets, under `<cache-dir>/tracks/`, bounded in bytes together, the least recently used
/// evicted first. The index (key, name, size, last use, checksum, a line of metadata, and the kind:
/// `file` or `tracks`) lives in the cache database's `file` table. Track sets are indexed and
/// checked by `DiskCache+TrackSets`; a set that a reader has open is not evicted.
///
/// Written atomically: the bytes go to a temporary name in the same folder, are fsynced, then
/// renamed over the final name, and only then indexed. A reader only serves a file the index names
/// whose size and checksum (over its bytes and its row) match, so a crash at any point never serves a half file; temporary
/// files of dead processes and files the index does not name are removed at open. A damaged entry
/// is removed when read and counts as a miss (the caller makes it again).
public final class DiskCache: Sendable {
    /// The folder of the files.
    public let folder: String
    /// The folder of the track sets, one folder each.
    public let tracksFolder: String
    /// The most the files may take together, in bytes.
    public let capacity: Int64
    let database: CacheDatabase
    let logger: Logger
    /// Whether the folder's disk takes writes.
    let refusals: DiskRefusals
    /// Track sets open for reading, by name, and whether an eviction passed one over.
    let pins = Mutex(Pins())

    struct Pins {
        var counts: [String: Int] = [:]
        var skipped = false
    }

    static let temporaryPrefix = ".tmp-"
    /// The folders of made files and of track sets, in the cache folder.
    static let folderNames = ["files", "tracks"]

    /// - Throws: `CacheError.unwritable` where `<database>/files` cannot be made.
    public init(database: CacheDatabase, capacity: Int64, logger: Logger) throws {
        self.database = database
        self.capacity = capacity
        self.logger = logger
        folder = database.directory + "/" + Self.folderNames[0]
        tracksFolder = database.directory + "/" + Self.folderNames[1]
        refusals = DiskRefusals(folder: database.directory, logger: logger)
        for made in [folder, tracksFolder] { try PrivateFolder.make(made) }
        cleanUp()
        cleanUpTrackSets()
        evict()
    }

    /// A kept entry: its bytes and the metadata stored with it.
    public struct Entry: Sendable, Equatable {
        public var bytes: [UInt8]
        public var meta: String?
    }

    /// The entry for `key`, checked against its size and checksum, marked as just used; nil when
    /// there is none or it was damaged (then it is removed).
    public func read(_ key: String) -> Entry? {
        let row = try? database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT name, size, checksum, meta FROM file WHERE key = ? AND kind = 'file'", arguments: [key])
        }
        guard let row = row ?? nil else {
            database.count("file_misses")
            return nil
        }
        let name: String = row["name"]
        let size: Int64 = row["size"]
        let checksum: Int64 = row["checksum"]
        let meta: String? = row["meta"]
        let path = folder + "/" + name
        guard let bytes = Self.readFile(path) else {
            // Evicted or cleared meanwhile: a plain miss.
            forget(key, name: name, path: path)
            database.count("file_misses")
            return nil
        }
        guard bytes.count == size, Self.checksum(bytes, key: key, name: name, meta: meta) == checksum else {
            logger.warning("the cached file \(path) is damaged (\(bytes.count) of \(size) bytes, checksum differs): removed, made again")
            forget(key, name: name, path: path)
            database.count("file_misses")
            database.count("file_damaged")
            return nil
        }
        try? database.pool.write { db in
            try db.execute(sql: "UPDATE file SET last_use = ? WHERE key = ?", arguments: [Self.now(), key])
        }
        database.count("file_hits")
        return Entry(bytes: bytes, meta: meta)
    }

    /// Keeps `bytes` for `key` (replacing what was kept), then evicts down to the bound. Entries
    /// larger than the whole bound are not kept. Errors are logged, not thrown: the caller has the
    /// bytes anyway. A disk that refuses the write (full, read-only) is logged once for the spell
    /// (`DiskRefusals`), and nothing of the entry is left: no temporary, no row.
    public func store(_ bytes: [UInt8], meta: String? = nil, for key: String) {
        guard Int64(bytes.count) <= capacity else { return }
        let name = Checksum.fileName(for: key)
        let path = folder + "/" + name
        do {
            try Self.writeAtomically(bytes, to: path, folder: folder)
            try database.pool.write { db in
                try db.execute(sql: """
                    INSERT OR REPLACE INTO file (key, name, size, last_use, checksum, meta) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [key, name, Int64(bytes.count), Self.now(),
                                     Self.checksum(bytes, key: key, name: name, meta: meta), meta])
            }
        } catch {
            if let code = DiskRefusals.refusal(in: error) {
                refusals.refused(code, writing: path)
            } else {
                logger.warning("cannot keep \(path) in the disk cache: \(error)")
            }
            // Written but not indexed (the database refused): no file without its row.
            if access(path, F_OK) == 0, !isIndexed(key) { unlink(path) }
            return
        }
        refusals.taken(path)
        evict(sparing: key)
    }

    /// Removes entries, least recently used first, until they fit in the bound. A track set open
    /// for reading is passed over (and the eviction run again once it is closed), and so is `sparing`,
    /// the entry just stored, which fits in the bound alone.
    func evict(sparing: String? = nil) {
        let pinned = pins.withLock { $0.counts }
        var skipped = false
        let dropped: [(name: String, kind: String)] = (try? database.pool.write { db -> [(String, String)] in
            var total = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM file") ?? 0
            guard total > capacity else { return [] }
            var dropped: [(String, String)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT key, name, size, kind FROM file ORDER BY last_use")
            var keys: [String] = []
            while total > capacity, let row = try rows.next() {
                let kind: String = row["kind"]
                let name: String = row["name"]
                if kind == Self.trackSetKind && pinned[name] != nil {
                    skipped = true
                    continue
                }
                if row["key"] as String == sparing { continue }
                keys.append(row["key"])
                dropped.append((name, kind))
                total -= row["size"] as Int64
            }
            for key in keys { try db.execute(sql: "DELETE FROM file WHERE key = ?", arguments: [key]) }
            return dropped
        }) ?? []
        if skipped { pins.withLock { $0.skipped = true } }
        for entry in dropped {
            if entry.kind == Self.trackSetKind {
                removeTrackSetFolder(entry.name)
            } else {
                unlink(folder + "/" + entry.name)
            }
        }
        if !dropped.isEmpty { database.count("file_evictions", dropped.count) }
    }

    /// What the cache holds: entries and bytes, made files and track sets apart.
    public func usage() throws -> (files: Int, fileBytes: Int64, trackSets: Int, trackBytes: Int64) {
        try database.pool.read { db in
            var usage = (files: 0, fileBytes: Int64(0), trackSets: 0, trackBytes: Int64(0))
            let rows = try Row.fetchAll(db, sql: "SELECT kind, COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM file GROUP BY kind")
            for row in rows {
                if row["kind"] as String == Self.trackSetKind {
                    (usage.trackSets, usage.trackBytes) = (row["n"], row["bytes"])
                } else {
                    (usage.files, usage.fileBytes) = (row["n"], row["bytes"])
                }
            }
            return usage
        }
    }

    /// Removes every entry, its file and every track set.
    public func clear() throws {
        _ = try database.pool.write { db in try db.execute(sql: "DELETE FROM file") }
        cleanUp()
        cleanUpTrackSets(keepingRecent: false)
    }

    // MARK: Files

    /// Removes temporary files of processes that are gone, files the index does not name, and
    /// index rows whose file is gone.
    func cleanUp() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let indexed = Set((try? database.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM file WHERE kind = 'file'")
        }) ?? [])
        var present = Set<String>()
        var removed = 0
        for name in names {
            if name.hasPrefix(Self.temporaryPrefix) {
                // .tmp-<pid>-<name>: a writer that is gone left it (a crash mid-write).
                guard Self.writerIsGone(name, prefix: Self.temporaryPrefix) else { continue }
                unlink(folder + "/" + name)
                removed += 1
            } else if indexed.contains(name) {
                present.insert(name)
            } else {
                unlink(folder + "/" + name)
                removed += 1
            }
        }
        let missing = indexed.subtracting(present)
        if !missing.isEmpty {
            try? database.pool.write { db in
                for name in missing { try db.execute(sql: "DELETE FROM file WHERE name = ? AND kind = 'file'", arguments: [name]) }
            }
        }
        if removed > 0 { logger.info("disk cache: removed \(removed) unfinished or unindexed files from \(folder)") }
    }

    /// Whether `<prefix><pid>-…` names a process that is gone (not this one, not a live one).
    static func writerIsGone(_ name: String, prefix: String) -> Bool {
        guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ Int32($0) }) else { return true }
        guard pid != getpid() else { return false }
        return !(kill(pid, 0) == 0 || errno == EPERM)
    }

    private func forget(_ key: String, name: String, path: String) {
        try? database.pool.write { db in try db.execute(sql: "DELETE FROM file WHERE key = ?", arguments: [key]) }
        unlink(path)
    }

    /// Whether the index has a row for `key`.
    private func isIndexed(_ key: String) -> Bool {
        (try? database.pool.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM file WHERE key = ?", arguments: [key]) }) == true
    }

    /// Microseconds since 1970: the order of use.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
    }
}
