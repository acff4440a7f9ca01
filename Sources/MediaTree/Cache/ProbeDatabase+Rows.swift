import Foundation
import GRDB
import MediaKit

/// The `version` table's rows: a column per fact (`ProbeDatabase.Fact`), with its kind and checksum.
extension ProbeDatabase {
    /// The table, as `CacheDatabase` makes it.
    static let tableSQL = """
        CREATE TABLE version (
            device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
            probe BLOB, probe_kind TEXT, probe_sum INTEGER,
            chapters BLOB, chapters_kind TEXT, chapters_sum INTEGER,
            listing BLOB, listing_kind TEXT, listing_sum INTEGER,
            analysis BLOB, analysis_kind TEXT, analysis_sum INTEGER,
            audio BLOB, audio_kind TEXT, audio_sum INTEGER,
            stored_at INTEGER NOT NULL,
            PRIMARY KEY (device, inode, size, mtime_ns)
        ) WITHOUT ROWID;
        """

    /// The values of the row of `identity` whose kind is the one asked (`kinds`) and whose checksum
    /// holds (none where the database cannot be read). A value whose checksum fails is left out,
    /// logged once and removed, so that what replaces it is made again.
    func values(of identity: FileIdentity, kinds: [Fact: String]) -> [Fact: Data] {
        let row = (try? database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM version WHERE device = ? AND inode = ? AND size = ? AND mtime_ns = ?",
                             arguments: Self.arguments(identity))
        }) ?? nil
        guard let row else { return [:] }
        var values: [Fact: Data] = [:]
        for fact in Fact.allCases {
            guard let data = row[fact.rawValue] as Data?, let kind = row[fact.rawValue + "_kind"] as String? else { continue }
            guard row[fact.rawValue + "_sum"] as Int64? == Self.checksum(identity, fact, kind: kind, data: data) else {
                forgetDamaged(fact, of: identity, kind: kind)
                continue
            }
            if kind == kinds[fact] { values[fact] = data }
        }
        return values
    }

    /// Writes `data` as `fact` (of `kind`) of the version `identity`, keeping its other facts.
    static func write(_ db: Database, _ fact: Fact, of identity: FileIdentity, kind: String, data: Data, at storedAt: Int64) throws {
        let column = fact.rawValue
        try db.execute(sql: """
            INSERT INTO version (device, inode, size, mtime_ns, \(column), \(column)_kind, \(column)_sum, stored_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (device, inode, size, mtime_ns) DO UPDATE SET \(column) = excluded.\(column),
                \(column)_kind = excluded.\(column)_kind, \(column)_sum = excluded.\(column)_sum, stored_at = excluded.stored_at
            """, arguments: arguments(identity) + [data, kind, checksum(identity, fact, kind: kind, data: data), storedAt])
    }

    /// Logs (once per process) and removes `fact` of the row of `identity`, found damaged.
    private func forgetDamaged(_ fact: Fact, of identity: FileIdentity, kind: String) {
        let value = "\(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds) \(fact)"
        if damaged.withLock({ $0.insert(value).inserted }) {
            database.logger.warning("""
                a row of the probe database is damaged (its checksum differs): file device \(identity.device), \
                inode \(identity.inode), size \(identity.size), mtime \(identity.modificationNanoseconds) ns, \
                \(fact) (\(kind)); removed, to be read from the file again
                """)
        }
        let column = fact.rawValue
        try? database.pool.write { db in
            try db.execute(sql: """
                UPDATE version SET \(column) = NULL, \(column)_kind = NULL, \(column)_sum = NULL
                WHERE device = ? AND inode = ? AND size = ? AND mtime_ns = ?
                """, arguments: Self.arguments(identity))
        }
        database.count("probe_rows_damaged")
    }

    /// `Checksum` of a value with its key: the key's fields, the fact and its kind as text, the
    /// value's length, then its bytes.
    static func checksum(_ identity: FileIdentity, _ fact: Fact, kind: String, data: Data) -> Int64 {
        let head = "\(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds) \(fact) \(kind) \(data.count)\n"
        return Int64(bitPattern: Checksum.of(Array(head.utf8) + Array(data)))
    }

    /// The row key's arguments.
    static func arguments(_ identity: FileIdentity) -> StatementArguments {
        [Int64(bitPattern: identity.device), Int64(bitPattern: identity.inode), identity.size, identity.modificationNanoseconds]
    }
}
