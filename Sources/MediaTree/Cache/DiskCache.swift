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
/// Written atomically: the bytes go to a temporary name in the same folder and are fsynced; the
/// rename to the final name and the index's row are one write transaction of the database
/// (`publish`). A reader only serves a file the index names whose size and checksum (over the
/// bytes and the row) match, so a crash at any point never serves a half file.
///
/// Shared: several mounts (of one user, or of machines sharing the folder over a network file
/// system) may use one cache folder at once.
/// Whatever changes a name in `files/` (publishing, eviction, removing a damaged entry, the
/// clean-up at open) does so inside a write transaction, which SQLite holds for one process at a
/// time, so no mount ever sees a file whose row another is about to write, and the bound is kept
/// over the shared index. Temporaries of writers that are gone (`WriterLock`: dead, even if not
/// yet reaped) and files the index does not name are removed at open; a damaged entry is removed
/// when read and counts as a miss (the caller makes it again).
public final class DiskCache: Sendable {
    /// The folder of the files.
    public let folder: String
    /// The folder of the track sets, one folder each.
    public let tracksFolder: String
    /// The most the files may take together, in bytes.
    public let capacity: Int64
    let database: CacheDatabase
    let logger: Logger
    /// This process's lock in the cache folder, named by its temporaries.
    let writer: WriterLock
    /// Whether the folder's disk takes writes.
    let refusals: DiskRefusals
    /// Track sets open for reading, by name, and whether an eviction passed one over.
    let pins = Mutex(Pins())

    struct Pins {
        var counts: [String: Int] = [:]
        var skipped = false
    }

    static let temporaryPrefix = ".tmp-"
    /// The folders of made files, of track sets and of the writers' locks, in the cache folder.
    static let folderNames = ["files", "tracks", WriterLock.folderName]

    /// - Throws: `CacheError` where the folders or this process's lock cannot be made.
    public init(database: CacheDatabase, capacity: Int64, logger: Logger) throws {
        self.database = database
        self.capacity = capacity
        self.logger = logger
        folder = database.directory + "/" + Self.folderNames[0]
        tracksFolder = database.directory + "/" + Self.folderNames[1]
        for made in [folder, tracksFolder] { try PrivateFolder.make(made) }
        writer = try WriterLock(directory: database.directory)
        refusals = DiskRefusals(folder: database.directory, logger: logger)
        writer.removeGone()
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
        guard let file = Self.readFile(path) else {
            // Evicted or cleared meanwhile (by this mount or another sharing the folder): a plain miss.
            forget(key, checksum: checksum, path: path, inode: nil)
            database.count("file_misses")
            return nil
        }
        guard file.bytes.count == size, Self.checksum(file.bytes, key: key, name: name, meta: meta) == checksum else {
            logger.warning("the cached file \(path) is damaged (\(file.bytes.count) of \(size) bytes, checksum differs): removed, made again")
            forget(key, checksum: checksum, path: path, inode: file.inode)
            database.count("file_misses")
            database.count("file_damaged")
            return nil
        }
        try? database.pool.write { db in
            try db.execute(sql: "UPDATE file SET last_use = ? WHERE key = ?", arguments: [Self.now(), key])
        }
        database.count("file_hits")
        return Entry(bytes: file.bytes, meta: meta)
    }

    /// Keeps `bytes` for `key` (replacing what was kept), then evicts down to the bound. Entries
    /// larger than the whole bound are not kept. Errors are logged, not thrown: the caller has the
    /// bytes anyway. A disk that refuses the write (full, read-only) is logged once for the spell
    /// (`DiskRefusals`), and nothing of the entry is left: no temporary, no row.
    public func store(_ bytes: [UInt8], meta: String? = nil, for key: String) {
        guard Int64(bytes.count) <= capacity else { return }
        let name = Checksum.fileName(for: key)
        let path = folder + "/" + name
        let checksum = Self.checksum(bytes, key: key, name: name, meta: meta)
        do {
            let temporary = try writeTemporary(bytes)
            try publish(temporary, as: path) { db in
                try db.execute(sql: """
                    INSERT OR REPLACE INTO file (key, name, size, last_use, checksum, meta) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [key, name, Int64(bytes.count), Self.now(), checksum, meta])
            }
        } catch {
            if let code = DiskRefusals.refusal(in: error) {
                refusals.refused(code, writing: path)
            } else {
                logger.warning("cannot keep \(path) in the disk cache: \(error)")
            }
            return
        }
        refusals.taken(path)
        evict(sparing: key)
    }

    /// Removes entries, least recently used first, until they fit in the bound. A track set open
    /// for reading, here (`pin`) or by another mount sharing the folder (`isOpenElsewhere`), is
    /// passed over (and the eviction run again once a pin of this mount is released), and so is
    /// `sparing`, the entry just stored, which fits in the bound alone.
    func evict(sparing: String? = nil) {
        let pinned = pins.withLock { $0.counts }
        var skipped = false
        var evicted = 0
        let moved: [String]? = try? database.pool.write { db -> [String] in
            var total = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM file") ?? 0
            guard total > capacity else { return [] }
            var keys: [String] = []
            var moved: [String] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT key, name, size, kind FROM file ORDER BY last_use")
            while total > capacity, let row = try rows.next() {
                let key: String = row["key"]
                let name: String = row["name"]
                guard key != sparing else { continue }
                if row["kind"] as String == Self.trackSetKind {
                    guard pinned[name] == nil, !isOpenElsewhere(name) else {
                        skipped = true
                        continue
                    }
                    moved.append(Self.moveAside(tracksFolder + "/" + name))
                } else {
                    unlink(folder + "/" + name)
                }
                keys.append(key)
                total -= row["size"] as Int64
            }
            for key in keys { try db.execute(sql: "DELETE FROM file WHERE key = ?", arguments: [key]) }
            evicted = keys.count
            return moved
        }
        if skipped { pins.withLock { $0.skipped = true } }
        if evicted > 0 { database.count("file_evictions", evicted) }
        for path in moved ?? [] { try? FileManager.default.removeItem(atPath: path) }
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

    /// `Checksum` of an entry: its bytes, seeded with its row's key, name and metadata, so that a
    /// row changed on the disk (a flipped digit of the frame time it keeps) fails as a changed
    /// file does. The size is part of it too (`Checksum` hashes the length).
    static func checksum(_ bytes: [UInt8], key: String, name: String, meta: String?) -> Int64 {
        let row = Array("\(key)\n\(name)\n".utf8) + (meta.map { [1] + Array($0.utf8) } ?? [0])
        return Int64(bitPattern: Checksum.of(bytes, seed: Checksum.of(row)))
    }

    /// Microseconds since 1970: the order of use.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
    }
}
