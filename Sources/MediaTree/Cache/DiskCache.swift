import Foundation
import Glibc
import GRDB
import Logging

/// Made files kept on disk across mounts, under `<cache-dir>/files/`, bounded in bytes, the least
/// recently used evicted first. The index (key, file name, size, last use, checksum, a line of
/// metadata) lives in the cache database's `file` table.
///
/// Written atomically: the bytes go to a temporary name in the same folder, are fsynced, then
/// renamed over the final name, and only then indexed. A reader only serves a file the index names
/// whose size and checksum match, so a crash at any point never serves a half file; temporary
/// files of dead processes and files the index does not name are removed at open. A damaged entry
/// is removed when read and counts as a miss (the caller makes it again).
public final class DiskCache: Sendable {
    /// The folder of the files.
    public let folder: String
    /// The most the files may take together, in bytes.
    public let capacity: Int64
    let database: CacheDatabase
    private let logger: Logger

    static let temporaryPrefix = ".tmp-"

    /// - Throws: `CacheError.unwritable` where `<database>/files` cannot be made.
    public init(database: CacheDatabase, capacity: Int64, logger: Logger) throws {
        self.database = database
        self.capacity = capacity
        self.logger = logger
        folder = database.directory + "/files"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CacheError.unwritable(path: folder, reason: CacheDatabase.reason(error))
        }
        cleanUp()
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
            try Row.fetchOne(db, sql: "SELECT name, size, checksum, meta FROM file WHERE key = ?", arguments: [key])
        }
        guard let row = row ?? nil else {
            database.count("file_misses")
            return nil
        }
        let name: String = row["name"]
        let size: Int64 = row["size"]
        let checksum = UInt64(bitPattern: row["checksum"] as Int64)
        let path = folder + "/" + name
        guard let bytes = Self.readFile(path) else {
            // Evicted or cleared meanwhile: a plain miss.
            forget(key, name: name, path: path)
            database.count("file_misses")
            return nil
        }
        guard bytes.count == size, Checksum.of(bytes) == checksum else {
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
        return Entry(bytes: bytes, meta: row["meta"])
    }

    /// Keeps `bytes` for `key` (replacing what was kept), then evicts down to the bound. Entries
    /// larger than the whole bound are not kept. Errors are logged, not thrown: the caller has the
    /// bytes anyway.
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
                                     Int64(bitPattern: Checksum.of(bytes)), meta])
            }
        } catch {
            logger.warning("cannot keep \(path) in the disk cache: \(error)")
            return
        }
        evict()
    }

    /// Removes entries, least recently used first, until the files fit in the bound.
    func evict() {
        let dropped: [String] = (try? database.pool.write { db -> [String] in
            var total = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM file") ?? 0
            guard total > capacity else { return [] }
            var names: [String] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT key, name, size FROM file ORDER BY last_use")
            var keys: [String] = []
            while total > capacity, let row = try rows.next() {
                keys.append(row["key"])
                names.append(row["name"])
                total -= row["size"] as Int64
            }
            for key in keys { try db.execute(sql: "DELETE FROM file WHERE key = ?", arguments: [key]) }
            return names
        }) ?? []
        for name in dropped { unlink(folder + "/" + name) }
        if !dropped.isEmpty { database.count("file_evictions", dropped.count) }
    }

    /// What the cache holds: entries and bytes.
    public func usage() throws -> (entries: Int, bytes: Int64) {
        try database.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM file")
            return (row?["n"] ?? 0, row?["bytes"] ?? 0)
        }
    }

    /// Removes every entry and its file.
    public func clear() throws {
        _ = try database.pool.write { db in try db.execute(sql: "DELETE FROM file") }
        cleanUp()
    }

    // MARK: Files

    /// Removes temporary files of processes that are gone, files the index does not name, and
    /// index rows whose file is gone.
    func cleanUp() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let indexed = Set((try? database.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM file") }) ?? [])
        var present = Set<String>()
        var removed = 0
        for name in names {
            if name.hasPrefix(Self.temporaryPrefix) {
                // .tmp-<pid>-<name>: a writer that is gone left it (a crash mid-write).
                let pid = name.dropFirst(Self.temporaryPrefix.count).split(separator: "-").first.flatMap { Int32($0) }
                if let pid, pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
                if pid == getpid() { continue }
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
                for name in missing { try db.execute(sql: "DELETE FROM file WHERE name = ?", arguments: [name]) }
            }
        }
        if removed > 0 { logger.info("disk cache: removed \(removed) unfinished or unindexed files from \(folder)") }
    }

    private func forget(_ key: String, name: String, path: String) {
        try? database.pool.write { db in try db.execute(sql: "DELETE FROM file WHERE key = ?", arguments: [key]) }
        unlink(path)
    }

    /// Writes `bytes` to a temporary file in `folder`, fsyncs it and renames it to `path`.
    static func writeAtomically(_ bytes: [UInt8], to path: String, folder: String) throws {
        let temporary = folder + "/" + temporaryPrefix + "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CacheError.unwritable(path: temporary, reason: String(cString: strerror(errno))) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failure = errno; return }
                written += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw CacheError.unwritable(path: path, reason: String(cString: strerror(failure)))
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let size = Int(st.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, filled in
            filled = 0
            while filled < size {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, size - filled)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = true; return }
                if n == 0 { return }
                filled += n
            }
        }
        return failed ? nil : bytes
    }

    /// Microseconds since 1970: the order of use.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
    }
}
