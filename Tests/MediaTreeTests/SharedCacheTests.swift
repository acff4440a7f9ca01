import Dispatch
import Foundation
import Glibc
import GRDB
import Logging
import Synchronization
@testable import MediaTree
import Testing
import TestSupport

/// One cache folder used by two disk caches at once, as by two mounts (the through-a-mount proof
/// with two daemons is `SharedCacheMountTests`).
@Suite struct SharedCacheTests {
    static func open(_ folder: CacheFolderFixture, capacity: Int64 = 1 << 20) throws -> DiskCache {
        try DiskCache(database: try folder.database(), capacity: capacity, logger: Logger(label: "test"))
    }

    /// The names in `files/` (temporaries aside) and the index's rows of made files agree.
    static func agree(_ cache: DiskCache) throws -> Bool {
        let named = Set(try cache.database.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM file WHERE kind = 'file'") })
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { !$0.hasPrefix(".") })
        return named == present
    }

    /// One cache stores entries while the other is opened again and again (its clean-up at open
    /// removes files the index does not name): every entry stored is kept, index and folder agree.
    @Test func aCleanUpNeverTakesAFileJustPublished() throws {
        let folder = CacheFolderFixture()
        // A bound far above what is stored: an entry evicted for room would read as lost. (At
        // 1 MiB, a loaded machine whose opens are slow had the writer store past the bound.)
        let capacity: Int64 = 1 << 26
        let writer = try Self.open(folder, capacity: capacity)
        let path = folder.path
        let done = Atomic<Bool>(false)
        let opened = Atomic<Int>(0)
        let stored = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            if thread == 0 {
                var i = 0
                while (i < 60 || opened.load(ordering: .relaxed) < 20) && Int64(i) * 2_000 < capacity / 2 {
                    writer.store(DiskCacheTests.bytes(UInt8(truncatingIfNeeded: i), count: 2_000), for: "k\(i)")
                    i += 1
                }
                stored.store(i, ordering: .relaxed)
                done.store(true, ordering: .relaxed)
            } else {
                while !done.load(ordering: .relaxed) {
                    _ = try? DiskCache(database: try CacheDatabase(directory: path, logger: Logger(label: "test")),
                                       capacity: capacity, logger: Logger(label: "test"))
                    opened.add(1, ordering: .relaxed)
                }
            }
        }
        for i in 0..<stored.load(ordering: .relaxed) {
            let kept = writer.read("k\(i)")?.bytes == DiskCacheTests.bytes(UInt8(truncatingIfNeeded: i), count: 2_000)
            #expect(kept, "k\(i) was lost")
        }
        #expect(try Self.agree(writer))
    }

    /// Both store and read at once over a bound that holds a few entries: every entry read is whole,
    /// the bound holds on the shared index, and index and folder agree.
    @Test func twoCachesKeepOneBound() throws {
        let folder = CacheFolderFixture()
        let caches = [try Self.open(folder, capacity: 50_000), try Self.open(folder, capacity: 50_000)]
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let cache = caches[thread % 2]
            for i in 0..<40 {
                let key = "k\(i % 12)"
                cache.store(DiskCacheTests.bytes(UInt8(i % 12)), for: key)
                if let entry = caches[(thread + 1) % 2].read(key) {
                    let whole = entry.bytes == DiskCacheTests.bytes(UInt8(i % 12))
                    #expect(whole, "\(key) read back other bytes")
                }
            }
        }
        let usage = try caches[0].usage()
        #expect(usage.fileBytes <= 50_000, "\(usage)")
        #expect(try Self.agree(caches[0]))
    }

    /// A set another cache has a file of open for reading (its `flock`) is passed over by eviction.
    @Test func aSetReadElsewhereIsNotEvicted() throws {
        let folder = CacheFolderFixture()
        let evicting = try Self.open(folder, capacity: 30_000)
        let reading = try Self.open(folder, capacity: 30_000)
        for name in ["s1", "s2"] {
            let working = try evicting.makePassFolder()
            try FileManager.default.createDirectory(atPath: working + "/audible", withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: working + "/audible/a.mka", contents: Data(DiskCacheTests.bytes(1, count: 20_000))))
            try DiskCache.install(working, as: evicting.tracksFolder + "/" + name, files: ["audible/a.mka"])
        }
        let fd = Glibc.open(evicting.tracksFolder + "/s1/audible/a.mka", O_RDONLY)
        DiskCache.lockForReading(fd)
        #expect(evicting.isOpenElsewhere("s1") && !evicting.isOpenElsewhere("s2"))
        reading.indexTrackSet(key: "tracks s1", name: "s1", bytes: 20_000)
        // Over the bound with s2, but s1 is being read: both stay.
        evicting.indexTrackSet(key: "tracks s2", name: "s2", bytes: 20_000)
        #expect(FileManager.default.fileExists(atPath: evicting.tracksFolder + "/s1/audible/a.mka"))
        #expect(try evicting.usage().trackSets == 2)
        // Closed: s1, the least recently used, goes at the next eviction.
        close(fd)
        #expect(!evicting.isOpenElsewhere("s1"))
        evicting.evict()
        #expect(!FileManager.default.fileExists(atPath: evicting.tracksFolder + "/s1"))
        #expect(try evicting.usage().trackSets == 1)
    }

    /// The same pass made by two mounts: the set installed first stays when it holds the same
    /// bytes; one that does not (left damaged or incomplete) is replaced.
    @Test func installingOverASetKeepsAnEqualOne() throws {
        let folder = CacheFolderFixture()
        let cache = try Self.open(folder)
        func pass(_ bytes: [UInt8]) throws -> String {
            let working = try cache.makePassFolder()
            #expect(FileManager.default.createFile(atPath: working + "/a.mka", contents: Data(bytes)))
            return working
        }
        let final = cache.tracksFolder + "/set"
        try DiskCache.install(try pass([1, 2, 3]), as: final, files: ["a.mka"])
        var first = stat()
        #expect(stat(final + "/a.mka", &first) == 0)
        try DiskCache.install(try pass([1, 2, 3]), as: final, files: ["a.mka"])
        var second = stat()
        #expect(stat(final + "/a.mka", &second) == 0 && second.st_ino == first.st_ino, "the first set stays")
        try DiskCache.install(try pass([1, 2, 4]), as: final, files: ["a.mka"])
        #expect(FileManager.default.contents(atPath: final + "/a.mka") == Data([1, 2, 4]), "an unequal one is replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.tracksFolder) == ["set"], "no pass folder left")
    }

    /// A folder that mounts on other machines may share (on a network file system) is opened with
    /// a rollback journal, which takes the file system's locks, not WAL's shared memory; two
    /// caches on it see each other's entries.
    @Test func aFolderSharedAcrossMachinesUsesARollbackJournal() throws {
        let folder = CacheFolderFixture()
        #expect(!CacheDatabase.isOnNetworkFileSystem(FileManager.default.temporaryDirectory.path))
        let databases = [try CacheDatabase(directory: folder.path, logger: Logger(label: "test"), acrossMachines: true),
                         try CacheDatabase(directory: folder.path, logger: Logger(label: "test"), acrossMachines: true)]
        #expect(try databases[0].pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
        let caches = try databases.map { try DiskCache(database: $0, capacity: 1 << 20, logger: Logger(label: "test")) }
        caches[0].store(DiskCacheTests.bytes(1), for: "a")
        #expect(caches[1].read("a")?.bytes == DiskCacheTests.bytes(1))
        let probes = databases.map { ProbeDatabase(database: $0) }
        probes[1].store(.info(ProbeDatabaseTests.info(duration: 3)), for: ProbeDatabaseTests.identity)
        probes[1].flush()
        #expect(probes[0].kept(ProbeDatabaseTests.identity) == .info(ProbeDatabaseTests.info(duration: 3)))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/" + CacheDatabase.fileName + "-wal"))
    }
}
