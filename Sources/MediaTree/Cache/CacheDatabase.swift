import Foundation
import Glibc
import GRDB
import Logging
import Synchronization

/// The cache folder's SQLite database, `<cache-dir>/probes.sqlite`: probe results
/// (`ProbeDatabase`), the index of the disk cache (`DiskCache`) and the cache's counters.
///
/// It is a cache: a database that cannot be read (damaged, not SQLite, another schema) is made
/// anew with a warning in the log. Thread-safe. In WAL mode, many readers at once and one writer
/// (GRDB's pool), for every mount of the folder on this machine. On a network file system, where
/// mounts on other machines may share the folder, with a rollback journal and one connection:
/// WAL's index is shared memory, which machines do not share, and SQLite says WAL does not work
/// there; a rollback journal takes the file system's locks, which NFS and SMB carry to the server.
public final class CacheDatabase: Sendable {
    /// Bumped whenever a table changes: an older or newer database is dropped and made anew.
    static let schemaVersion = 5
    static let fileName = "probes.sqlite"
    /// What mediafs keeps in the cache folder: the database, the files SQLite makes beside it, and
    /// the disk cache's folders.
    static let entryNames: Set<String> = Set(["", "-wal", "-shm", "-journal"].map { fileName + $0 } + DiskCache.folderNames)

    /// The cache folder.
    public let directory: String
    /// A pool of connections in WAL mode, or one connection with a rollback journal.
    let pool: any DatabaseWriter
    let logger: Logger
    private let counters = Mutex<PendingCounters>(PendingCounters())

    private struct PendingCounters {
        var values: [String: Int] = [:]
        var count = 0
        var lastFlush = ContinuousClock.now
    }

    /// Opens (making it where needed) the database in `directory`, made anew if it is damaged. The
    /// folder is private (`PrivateFolder`): made so, or made so now if it was not, with a line in
    /// the log.
    /// - Parameter acrossMachines: whether mounts on other machines may share the folder (then a
    ///   rollback journal); nil to tell by its file system (`isOnNetworkFileSystem`).
    /// - Throws: `CacheError.unwritable` when the folder cannot be made or written, or the error of
    ///   the second attempt when even a new database cannot be made.
    public init(directory: String, logger: Logger, acrossMachines: Bool? = nil) throws {
        self.directory = directory
        self.logger = logger
        try PrivateFolder.make(directory)
        guard access(directory, W_OK | X_OK) == 0 else {
            throw CacheError.unwritable(path: directory, reason: String(cString: strerror(errno)))
        }
        PrivateFolder.tighten(directory, own: Self.entryNames, logger: logger)
        let path = directory + "/" + Self.fileName
        let acrossMachines = acrossMachines ?? Self.isOnNetworkFileSystem(directory)
        do {
            pool = try Self.open(path, acrossMachines: acrossMachines)
        } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode.primaryResultCode) {
            // Another mount sharing the folder held it past the timeout: not damage, so not removed.
            throw CacheError.unwritable(path: path, reason: Self.reason(error))
        } catch {
            logger.warning("the cache database \(path) cannot be used (\(Self.reason(error))): made anew")
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            pool = try Self.open(path, acrossMachines: acrossMachines)
        }
    }

    /// Opens `path` (made `0600` first where it is missing: SQLite makes its `-wal`, `-shm` and
    /// `-journal` files with the database's mode), checks it and makes its tables.
    private static func open(_ path: String, acrossMachines: Bool) throws -> any DatabaseWriter {
        try PrivateFolder.makeFile(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let pool: any DatabaseWriter
        if acrossMachines {
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            pool = try DatabaseQueue(path: path, configuration: configuration)
        } else {
            configuration.prepareDatabase { db in
                // WAL: a commit is not an fsync; a crash may lose the last commits, never the file.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            pool = try DatabasePool(path: path, configuration: configuration)
        }
        let check = try pool.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
        guard check == "ok" else {
            throw CacheError.damaged(path: path, reason: check ?? "quick_check said nothing")
        }
        try pool.write { db in try makeTables(db) }
        return pool
    }

    private static func makeTables(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard version != schemaVersion else { return }
        if version == 4 {
            // Schema 5 adds the analysis's columns; what the cache holds stays.
            for column in ["analysis", "audio"] {
                try db.execute(sql: """
                    ALTER TABLE version ADD COLUMN \(column) BLOB;
                    ALTER TABLE version ADD COLUMN \(column)_kind TEXT;
                    ALTER TABLE version ADD COLUMN \(column)_sum INTEGER;
                    """)
            }
            try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
            return
        }
        for table in ["probe", "version", "file", "counter"] { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
        try db.execute(sql: ProbeDatabase.tableSQL)
        try db.execute(sql: """
            CREATE TABLE file (
                key TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL,
                last_use INTEGER NOT NULL, checksum INTEGER NOT NULL, meta TEXT,
                kind TEXT NOT NULL DEFAULT 'file'
            );
            CREATE INDEX file_by_last_use ON file (last_use);
            CREATE INDEX file_by_name ON file (name);
            CREATE TABLE counter (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID;
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    // MARK: Counters

    /// Adds `amount` to the counter `name`; written to the database in batches (see `flush`).
    func count(_ name: String, _ amount: Int = 1) {
        let due = counters.withLock { pending -> Bool in
            pending.values[name, default: 0] += amount
            pending.count += 1
            return pending.count >= 256 || ContinuousClock.now - pending.lastFlush > .seconds(2)
        }
        if due { flush() }
    }

    /// Writes the counts not yet written. Call before the process ends.
    public func flush() {
        let values = counters.withLock { pending -> [String: Int] in
            defer {
                pending.values = [:]
                pending.count = 0
                pending.lastFlush = .now
            }
            return pending.values
        }
        guard !values.isEmpty else { return }
        try? pool.write { db in
            for (name, value) in values {
                try db.execute(sql: """
                    INSERT INTO counter (name, value) VALUES (?, ?)
                    ON CONFLICT (name) DO UPDATE SET value = value + excluded.value
                    """, arguments: [name, value])
            }
        }
    }

    /// Every counter as written (call `flush` first for this process's latest).
    public func counterValues() throws -> [String: Int] {
        try pool.read { db in
            var values: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM counter") {
                values[row["name"]] = row["value"]
            }
            return values
        }
    }

    /// Sets every counter back to nothing.
    public func resetCounters() throws {
        counters.withLock { $0.values = [:] }
        _ = try pool.write { db in try db.execute(sql: "DELETE FROM counter") }
    }

    /// Whether the folder `path` (absolute) lies on a network or cluster file system, which mounts
    /// on other machines may share: the type of the mount holding it in /proc/self/mounts (the
    /// longest mount point that contains it; mount points there escape a space as `\040`).
    static func isOnNetworkFileSystem(_ path: String) -> Bool {
        let network: Set<Substring> = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "afs", "gfs2", "ocfs2",
                                       "lustre", "glusterfs", "fuse.glusterfs", "fuse.sshfs", "fuse.rclone"]
        let resolved = realpath(path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? path
        guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        var best: (point: String, type: Substring)?
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { continue }
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let contains = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
            if contains && point.count >= (best?.point.count ?? 0) { best = (point, fields[2]) }
        }
        return best.map { network.contains($0.type) } ?? false
    }

    static func reason(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error.localizedDescription)"
    }
}
