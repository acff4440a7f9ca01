import Foundation
import GRDB
import MediaKit
import Synchronization

/// Probe results kept across mounts, in the cache database's `probe` table.
///
/// A row is keyed by the source file's identity (device, inode, size, modification time in ns) and
/// a fingerprint of what shapes a probe (the schema of `MediaInfo`): a changed file, or a new
/// version of mediafs that probes differently, is a miss. The value is the `MediaInfo` as JSON, or
/// the `MediaError` of a probe that failed for good (not media, damaged), so that a remount does
/// not open broken files again either. Failures that may pass (a timeout, an I/O error) are not kept.
///
/// Every row carries a checksum over its key and value (`rowChecksum`), checked in the one place
/// rows are read (`rows(of:fingerprints:)`): SQLite's own checks pass a row whose bytes changed on
/// the disk, and a flipped digit in a width or a listed length would be served as a fact. A row
/// that fails it is treated as absent (probed or learnt again), logged once and removed.
///
/// Probes are written in batches: a first listing of a library probes thousands of files, two or
/// more at once, and a transaction each (with its JSON encoding) held up the probing threads
/// (PERFORMANCE.md, films). What is stored waits up to `batchDelay` (or `batchSize` probes), is
/// read from memory meanwhile, and is written at `flush` and when the database is released.
public final class ProbeDatabase: Sendable {
    /// Changes whenever `MediaInfo` or the prober changes what it records.
    public static let fingerprint = "mediainfo-5"

    let database: CacheDatabase
    /// Probes stored and not yet written.
    private let pending = Mutex<[FileIdentity: Kept]>([:])
    /// Rows found damaged in this process, so that each is logged once even where it cannot be removed.
    private let damaged = Mutex<Set<String>>([])

    static let batchDelay = 1.0
    static let batchSize = 256

    public init(database: CacheDatabase) {
        self.database = database
    }

    deinit { flush() }

    /// What is kept for a file: its probe, or why it cannot be probed.
    public enum Kept: Sendable, Equatable {
        case info(MediaInfo)
        case failure(MediaError)
    }

    /// The kept probe of the file at `identity`, or nil (not kept, or the database cannot be read).
    public func kept(_ identity: FileIdentity) -> Kept? {
        kept(identity, with: []).kept
    }

    /// The kept probe of the file at `identity`, and the values kept for it under `kinds` (as
    /// `value` reads them, undecoded), in one read: a remount reads what a media folder's listing
    /// needs with the probe that shows the file as one.
    public func kept(_ identity: FileIdentity, with kinds: [String]) -> (kept: Kept?, values: [String: Data]) {
        if let waiting = pending.withLock({ $0[identity] }) { return (waiting, [:]) }
        var kept: Kept?
        var values: [String: Data] = [:]
        let decoder = JSONDecoder()
        for row in rows(of: identity, fingerprints: [Self.fingerprint] + kinds) {
            let fingerprint: String = row["fingerprint"]
            guard fingerprint == Self.fingerprint else {
                values[fingerprint] = row["info"] as Data?
                continue
            }
            if let data = row["info"] as Data?, let info = try? decoder.decode(MediaInfo.self, from: data) {
                kept = .info(info)
            } else if let data = row["failure"] as Data?, let failure = try? decoder.decode(MediaError.self, from: data) {
                kept = .failure(failure)
            }
        }
        return (kept, values)
    }

    /// Keeps the probe of the file at `identity`, written with the others of its batch. Errors are
    /// dropped: the cache is an optimisation.
    public func store(_ kept: Kept, for identity: FileIdentity) {
        let count = pending.withLock { waiting in
            waiting[identity] = kept
            return waiting.count
        }
        // Once per batch: at its first probe (the delay) and when it fills (stores past that, before
        // the flush takes them, go with it).
        if count == Self.batchSize {
            DispatchQueue.global(qos: .utility).async { [weak self] in self?.flush() }
        } else if count == 1 {
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.batchDelay) { [weak self] in self?.flush() }
        }
    }

    /// Writes the probes stored and not yet written, in one transaction.
    public func flush() {
        let batch = pending.withLock { waiting in
            defer { waiting = [:] }
            return waiting
        }
        guard !batch.isEmpty else { return }
        let encoder = JSONEncoder()
        let now = Int64(Date().timeIntervalSince1970)
        try? database.pool.write { db in
            for (identity, kept) in batch {
                var info: Data?
                var failure: Data?
                switch kept {
                case .info(let value): info = try? encoder.encode(value)
                case .failure(let value): failure = try? encoder.encode(value)
                }
                guard info != nil || failure != nil else { continue }
                try Self.insert(db, identity, fingerprint: Self.fingerprint, info: info, failure: failure, at: now)
            }
        }
    }

    /// Another result read from a file and kept the same way, under a `kind` of its own that also
    /// serves as its fingerprint (e.g. `chapters-1`): nil when not kept or unreadable.
    public func value<T: Decodable>(_ type: T.Type, kind: String, for identity: FileIdentity) -> T? {
        guard let data = rows(of: identity, fingerprints: [kind]).first?["info"] as Data? else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    /// The rows kept for the file at `identity` under `fingerprints` whose checksum holds (none
    /// where the database cannot be read). A row whose checksum fails is left out, logged once
    /// and removed, so that what replaces it is made again.
    private func rows(of identity: FileIdentity, fingerprints: [String]) -> [Row] {
        let marks = fingerprints.map { _ in "?" }.joined(separator: ", ")
        let rows = (try? database.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT fingerprint, info, failure, checksum FROM probe
                WHERE device = ? AND inode = ? AND size = ? AND mtime_ns = ? AND fingerprint IN (\(marks))
                """, arguments: Self.arguments(identity, fingerprint: nil) + StatementArguments(fingerprints))
        }) ?? []
        return rows.filter { row in
            let fingerprint: String = row["fingerprint"]
            let checksum = Self.rowChecksum(identity, fingerprint: fingerprint, info: row["info"], failure: row["failure"])
            guard row["checksum"] as Int64? != checksum else { return true }
            forgetDamaged(identity, fingerprint: fingerprint)
            return false
        }
    }

    /// Logs (once per process) and removes the row of `identity` under `fingerprint`, found damaged.
    private func forgetDamaged(_ identity: FileIdentity, fingerprint: String) {
        let row = "\(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds) \(fingerprint)"
        if damaged.withLock({ $0.insert(row).inserted }) {
            database.logger.warning("""
                a row of the probe database is damaged (its checksum differs): file device \(identity.device), \
                inode \(identity.inode), size \(identity.size), mtime \(identity.modificationNanoseconds) ns, \
                kind \(fingerprint); removed, to be read from the file again
                """)
        }
        try? database.pool.write { db in
            try db.execute(sql: "DELETE FROM probe WHERE device = ? AND inode = ? AND size = ? AND mtime_ns = ? AND fingerprint = ?",
                           arguments: Self.arguments(identity, fingerprint: fingerprint))
        }
        database.count("probe_rows_damaged")
    }

    /// Keeps `value` for the file at `identity` under `kind`. Errors are dropped, as for probes.
    public func store<T: Encodable>(_ value: T, kind: String, for identity: FileIdentity) {
        guard let data = try? JSONEncoder().encode(value) else { return }
        try? database.pool.write { db in
            try Self.insert(db, identity, fingerprint: kind, info: data, at: Int64(Date().timeIntervalSince1970))
        }
    }

    /// Keeps each value for its file under `kind`, in one transaction.
    public func store<T: Encodable>(_ values: [(FileIdentity, T)], kind: String) {
        let encoder = JSONEncoder()
        let now = Int64(Date().timeIntervalSince1970)
        try? database.pool.write { db in
            for (identity, value) in values {
                guard let data = try? encoder.encode(value) else { continue }
                try Self.insert(db, identity, fingerprint: kind, info: data, at: now)
            }
        }
    }

    /// Whether a failure is worth keeping: true where probing the same bytes again would fail again.
    public static func isLasting(_ error: MediaError) -> Bool { !error.mayPass }

    /// Probes kept (not counting other kinds of results).
    public func count() throws -> Int {
        flush()
        return try database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM probe WHERE fingerprint = ?", arguments: [Self.fingerprint]) ?? 0
        }
    }

    /// Forgets every probe.
    public func clear() throws {
        pending.withLock { $0 = [:] }
        _ = try database.pool.write { db in try db.execute(sql: "DELETE FROM probe") }
    }

    /// Writes one row, keyed by `identity` and `fingerprint`, over any row of that key, with its checksum.
    private static func insert(_ db: Database, _ identity: FileIdentity, fingerprint: String, info: Data?, failure: Data? = nil,
                               at storedAt: Int64) throws {
        let checksum = rowChecksum(identity, fingerprint: fingerprint, info: info, failure: failure)
        try db.execute(sql: """
            INSERT OR REPLACE INTO probe (device, inode, size, mtime_ns, fingerprint, info, failure, stored_at, checksum)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: arguments(identity, fingerprint: fingerprint) + [info, failure, storedAt, checksum])
    }

    /// `Checksum` of a row's key and value: the key's fields as text, then the lengths of the two
    /// values (so that bytes cannot move from one to the other unseen), then the values.
    static func rowChecksum(_ identity: FileIdentity, fingerprint: String, info: Data?, failure: Data?) -> Int64 {
        let head = "\(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds) \(fingerprint) "
            + "\(info?.count ?? -1) \(failure?.count ?? -1)\n"
        return Int64(bitPattern: Checksum.of(Array(head.utf8) + Array(info ?? Data()) + Array(failure ?? Data())))
    }

    /// The row key's arguments: the identity's, then `fingerprint` unless nil.
    private static func arguments(_ identity: FileIdentity, fingerprint: String? = fingerprint) -> StatementArguments {
        var arguments: StatementArguments = [Int64(bitPattern: identity.device), Int64(bitPattern: identity.inode), identity.size,
                                             identity.modificationNanoseconds]
        if let fingerprint { arguments += [fingerprint] }
        return arguments
    }
}
