import FuseBridge
import Dispatch
import Foundation
import Logging
@testable import MediaKit
@testable import MediaTree
import TestSupport
import Testing

/// A cache folder of a test's own, removed afterwards.
final class CacheFolderFixture {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-cache-\(UUID().uuidString)").path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func database() throws -> CacheDatabase {
        try CacheDatabase(directory: path, logger: Logger(label: "test"))
    }
}

@Suite struct ProbeDatabaseTests {
    static func info(duration: Double) -> MediaInfo {
        let json = """
            {"container": {"format": "matroska,webm", "formatLongName": "Matroska", "duration": \(duration),
                           "startTime": 0, "bitRate": 1000, "size": 1234},
             "streams": [], "tags": {"title": "A film"},
             "chapters": [{"id": 1, "start": 0, "end": \(duration), "title": "Één", "tags": {"x": "y"}}]}
            """
        return try! JSONDecoder().decode(MediaInfo.self, from: Data(json.utf8))
    }

    static let identity = FileIdentity(device: 2049, inode: UInt64.max - 3, size: 1_234,
                                       modificationNanoseconds: 1_700_000_000_123_456_789)

    @Test func roundTripsAcrossOpens() throws {
        let folder = CacheFolderFixture()
        ProbeDatabase(database: try folder.database()).store(.info(Self.info(duration: 12.5)), for: Self.identity)
        ProbeDatabase(database: try folder.database())
            .store(.failure(.notMedia(reason: "no header")), for: FileIdentity(device: 1, inode: 2, size: 3, modificationNanoseconds: 4))
        let reopened = ProbeDatabase(database: try folder.database())
        #expect(reopened.kept(Self.identity) == .info(Self.info(duration: 12.5)))
        #expect(reopened.kept(FileIdentity(device: 1, inode: 2, size: 3, modificationNanoseconds: 4))
                == .failure(.notMedia(reason: "no header")))
        #expect(try reopened.count() == 2)
    }

    @Test func anyChangeOfIdentityIsAMiss() throws {
        let folder = CacheFolderFixture()
        let probes = ProbeDatabase(database: try folder.database())
        probes.store(.info(Self.info(duration: 1)), for: Self.identity)
        var changed = [Self.identity, Self.identity, Self.identity, Self.identity]
        changed[0].device += 1
        changed[1].inode -= 1
        changed[2].size += 1
        changed[3].modificationNanoseconds += 1
        for identity in changed { #expect(probes.kept(identity) == nil, "\(identity)") }
        #expect(probes.kept(Self.identity) != nil)
    }

    @Test func passingFailuresAreNotKept() {
        #expect(!ProbeDatabase.isLasting(.timedOut(seconds: 20)))
        #expect(!ProbeDatabase.isLasting(.io(function: "read", code: 5)))
        #expect(ProbeDatabase.isLasting(.notMedia(reason: "x")))
    }

    /// Several threads storing and reading at once, through two connections to one file.
    @Test func manyThreadsAtOnce() throws {
        let folder = CacheFolderFixture()
        let first = ProbeDatabase(database: try folder.database())
        let second = ProbeDatabase(database: try folder.database())
        DispatchQueue.concurrentPerform(iterations: 400) { i in
            let identity = FileIdentity(device: 1, inode: UInt64(i % 100), size: 10, modificationNanoseconds: 0)
            let probes = i % 2 == 0 ? first : second
            probes.store(.info(Self.info(duration: Double(i % 100))), for: identity)
            _ = probes.kept(identity)
        }
        second.flush()
        for i in 0..<100 {
            let identity = FileIdentity(device: 1, inode: UInt64(i), size: 10, modificationNanoseconds: 0)
            #expect(first.kept(identity) == .info(Self.info(duration: Double(i))))
        }
        #expect(try first.count() == 100)
    }

    /// Probes stored are read back at once from memory, written together at a flush, and written
    /// without one once a batch is full.
    @Test func storedProbesAreReadAtOnceAndWrittenInBatches() throws {
        let folder = CacheFolderFixture()
        let probes = ProbeDatabase(database: try folder.database())
        let other = ProbeDatabase(database: try folder.database())
        func identity(_ i: Int) -> FileIdentity { FileIdentity(device: 7, inode: UInt64(i), size: 10, modificationNanoseconds: 0) }
        for i in 0..<10 { probes.store(.info(Self.info(duration: Double(i))), for: identity(i)) }
        #expect((0..<10).allSatisfy { probes.kept(identity($0)) == .info(Self.info(duration: Double($0))) })
        probes.flush()
        #expect((0..<10).allSatisfy { other.kept(identity($0)) == .info(Self.info(duration: Double($0))) })
        let full = (10..<(10 + ProbeDatabase.batchSize))
        for i in full { probes.store(.info(Self.info(duration: 1)), for: identity(i)) }
        let written = Wait.until(30, poll: 0.02) { full.allSatisfy { other.kept(identity($0)) != nil } }
        #expect(written, "a full batch is written without a flush")
    }

    @Test func aDamagedDatabaseIsMadeAnew() throws {
        let folder = CacheFolderFixture()
        ProbeDatabase(database: try folder.database()).store(.info(Self.info(duration: 1)), for: Self.identity)
        let path = folder.path + "/" + CacheDatabase.fileName
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: path))
        let reopened = ProbeDatabase(database: try folder.database())
        #expect(reopened.kept(Self.identity) == nil)
        reopened.store(.info(Self.info(duration: 2)), for: Self.identity)
        #expect(reopened.kept(Self.identity) == .info(Self.info(duration: 2)))
    }

    /// One digit changed in a kept row (SQLite's own checks still pass): the row is not served, is
    /// logged once with the file's identity and removed; the fact is stored again and served.
    @Test func aDamagedRowIsTreatedAsAbsent() throws {
        let folder = CacheFolderFixture()
        let log = RecordedLog()
        let database = try CacheDatabase(directory: folder.path, logger: log.logger)
        let probes = ProbeDatabase(database: database)
        probes.store(.info(Self.info(duration: 12.5)), for: Self.identity)
        probes.store(listing: Self.listing(infoBytes: 1806), kind: "listing-test", for: Self.identity)
        probes.flush()
        for (column, from, to) in [("probe", "12.5", "12.6"), ("listing", "1806", "1807")] {
            try database.pool.write { db in
                try db.execute(sql: "UPDATE version SET \(column) = CAST(replace(CAST(\(column) AS TEXT), ?, ?) AS BLOB)",
                               arguments: [from, to])
            }
        }
        #expect(try database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") } == "ok")
        for _ in 0..<3 {
            #expect(probes.kept(Self.identity) == nil)
            #expect(probes.stored(Self.identity, listingKind: "listing-test").listing == nil)
        }
        let warnings = log.recorded.filter { $0.contains("probe database is damaged") }
        #expect(warnings.count == 2, "once per row: \(warnings)")
        #expect(warnings.allSatisfy { $0.hasPrefix("warning") && $0.contains("inode \(Self.identity.inode)") }, "\(warnings)")
        #expect(try database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM version WHERE probe IS NOT NULL OR listing IS NOT NULL")
        } == 0, "removed")
        probes.store(.info(Self.info(duration: 12.5)), for: Self.identity)
        probes.store(listing: Self.listing(infoBytes: 1806), kind: "listing-test", for: Self.identity)
        probes.flush()
        let reopened = ProbeDatabase(database: try folder.database())
        #expect(reopened.kept(Self.identity) == .info(Self.info(duration: 12.5)))
        #expect(reopened.stored(Self.identity, listingKind: "listing-test").listing?.documents == ["info.json": 1806])
    }

    /// Listing facts holding one document's length.
    private static func listing(infoBytes: Int) -> ListingFacts {
        ListingFacts(ListingFacts.Stored(documents: ["info.json": infoBytes]))
    }

    @Test func anUnwritableFolderIsRefused() throws {
        let folder = CacheFolderFixture()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let file = folder.path + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect(throws: CacheError.self) { try CacheDatabase(directory: file + "/cache", logger: Logger(label: "test")) }
    }

    /// The tree answers a second time from the database: no probe made.
    @Test func aTreeOverTheSameFolderDoesNotProbeAgain() throws {
        let folder = CacheFolderFixture()
        var settings = TreeSettings()
        settings.cacheDirectory = folder.path
        let first = try TreeFixture(settings: settings)
        _ = try first.numbered.list(NodeKey.rootNumber)
        _ = try first.lookup("feature-1080p.mp4/info.json")
        #expect(first.media.total > 0)
        first.tree.flushCaches()  // as the daemon does when it unmounts
        let second = TreeFixture(source: first.source, settings: settings)
        _ = try second.numbered.list(NodeKey.rootNumber)
        _ = try second.lookup("feature-1080p.mp4/info.json")
        #expect(second.media.total == 0)
        #expect(second.tree.statisticsDocument().contains("\"probes\":0,"))
        try second.touch("feature-1080p.mp4")
        _ = try second.lookup("feature-1080p.mp4/info.json")
        #expect(second.media.probes(of: second.path("feature-1080p.mp4")) == 1, "a changed file is probed again")
    }
}
