import Dispatch
import Foundation
import Logging
@testable import MediaTree
import Testing
import TestSupport

@Suite struct DiskCacheTests {
    static func bytes(_ seed: UInt8, count: Int = 10_000) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    static func files(in cache: DiskCache) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.folder)) ?? []).sorted()
    }

    @Test func storesAtomicallyAndReadsBack() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        cache.store(Self.bytes(1), meta: "m", for: "a")
        #expect(cache.read("a") == DiskCache.Entry(bytes: Self.bytes(1), meta: "m"))
        cache.store(Self.bytes(2), meta: nil, for: "a")
        #expect(cache.read("a") == DiskCache.Entry(bytes: Self.bytes(2), meta: nil))
        #expect(cache.read("b") == nil)
        // One final file, no temporary left.
        #expect(Self.files(in: cache) == [Checksum.fileName(for: "a")])
        // Reopened: still there.
        let reopened = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        #expect(reopened.read("a")?.bytes == Self.bytes(2))
    }

    /// Someone removes the cache's folders under a running mount (`rm -rf ~/.cache/mediafs/*`):
    /// the next made file and the next pass make them again instead of failing.
    @Test func removedFoldersAreMadeAgain() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        cache.store(Self.bytes(1), for: "a")
        try FileManager.default.removeItem(atPath: cache.folder)
        try FileManager.default.removeItem(atPath: cache.tracksFolder)
        cache.store(Self.bytes(2), for: "b")
        #expect(cache.read("b")?.bytes == Self.bytes(2))
        #expect(cache.read("a") == nil)
        let pass = try cache.makePassFolder()
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: pass, isDirectory: &isFolder) && isFolder.boolValue)
    }

    /// Eight threads storing 10 KB entries into a 100 KB cache: the bound holds throughout and the
    /// most recent entries are the ones kept.
    @Test func evictionKeepsTheBoundUnderLoad() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 100_000, logger: Logger(label: "test"))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<40 {
                cache.store(Self.bytes(UInt8(i)), for: "t\(thread)-\(i)")
                _ = cache.read("t\(thread)-\(i / 2)")
                let usage = try? cache.usage()
                #expect((usage?.fileBytes ?? 0) <= 100_000 + 8 * 10_000, "within the bound but for stores in flight")
            }
        }
        cache.evict()
        let usage = try cache.usage()
        #expect(usage.fileBytes <= 100_000)
        #expect(usage.files == 10)
        let onDisk = Self.files(in: cache)
        #expect(onDisk.count == usage.files, "every evicted file is gone from the folder")
        // Least recently used first: an entry just read survives the next store, one not read does not.
        let small = try DiskCache(database: try CacheFolderFixture().database(), capacity: 30_000, logger: Logger(label: "test"))
        for key in ["x", "y", "z"] { small.store(Self.bytes(3), for: key) }
        _ = small.read("x")
        small.store(Self.bytes(4), for: "w")
        #expect(small.read("y") == nil && small.read("x") != nil && small.read("w") != nil)
        small.store([UInt8](repeating: 0, count: 40_000), for: "huge")
        #expect(small.read("huge") == nil, "larger than the whole bound: not kept")
    }

    /// Track sets count in the same bound as files, least recently used first; a set held open
    /// (pinned) is passed over until it is released, and then evicted.
    @Test func trackSetsShareTheBoundAndPinnedOnesStay() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 30_000, logger: Logger(label: "test"))
        func makeSet(_ name: String) throws {
            let working = try cache.makePassFolder()
            #expect(FileManager.default.createFile(atPath: working + "/a.mka", contents: Data(Self.bytes(1, count: 20_000))))
            try DiskCache.install(working, as: cache.tracksFolder + "/" + name, files: ["a.mka"])
            cache.indexTrackSet(key: "tracks " + name, name: name, bytes: 20_000)
        }
        func sets() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache.tracksFolder)) ?? []).sorted()
        }
        try makeSet("s1")
        var pin: DiskCache.Pin? = cache.pin("s1")
        // Over the bound, but s1 is open and s2 was just made: both stay for now.
        try makeSet("s2")
        #expect(sets() == ["s1", "s2"])
        pin = nil
        _ = pin
        // Released: the eviction passed over runs again (in the background), and s1 (least
        // recently used) goes.
        Wait.until(5) { sets() == ["s2"] }
        #expect(sets() == ["s2"])
        try makeSet("s3")
        #expect(sets() == ["s3"])
        cache.store(Self.bytes(2), for: "thumb")
        let usage = try cache.usage()
        #expect(usage.trackSets == 1 && usage.files == 1 && usage.trackBytes + usage.fileBytes <= 30_000, "\(usage)")
        // An unindexed set folder an hour old and a dead process's pass folder are removed at
        // open; a younger unindexed one may be another mount's, about to be indexed, and stays.
        try FileManager.default.createDirectory(atPath: cache.tracksFolder + "/stray", withIntermediateDirectories: true)
        var twoHoursAgo = [timeval(tv_sec: time(nil) - 7200, tv_usec: 0), timeval(tv_sec: time(nil) - 7200, tv_usec: 0)]
        #expect(utimes(cache.tracksFolder + "/stray", &twoHoursAgo) == 0)
        try FileManager.default.createDirectory(atPath: cache.tracksFolder + "/fresh", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: cache.tracksFolder + "/.pass-999999999-0000000000000001-1",
                                                withIntermediateDirectories: true)
        let livePass = try cache.makePassFolder()
        let reopened = try DiskCache(database: try folder.database(), capacity: 30_000, logger: Logger(label: "test"))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: reopened.tracksFolder)) ?? []).sorted()
                == [(livePass as NSString).lastPathComponent, "fresh", "s3"])
        DiskCache.removeFolder(livePass)
        try reopened.clear()
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: reopened.tracksFolder)) ?? []).isEmpty)
    }

    @Test func aDamagedEntryIsNotServed() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        for key in ["flipped", "cut", "gone"] { cache.store(Self.bytes(7), for: key) }
        // One byte flipped in the middle, same length.
        let flipped = URL(fileURLWithPath: cache.folder + "/" + Checksum.fileName(for: "flipped"))
        var bytes = try Data(contentsOf: flipped)
        bytes[5_000] ^= 0x01
        try bytes.write(to: flipped)
        truncate(cache.folder + "/" + Checksum.fileName(for: "cut"), 4_000)
        unlink(cache.folder + "/" + Checksum.fileName(for: "gone"))
        for key in ["flipped", "cut", "gone"] { #expect(cache.read(key) == nil, "\(key)") }
        #expect(try cache.usage().files == 0, "damaged entries are removed")
        #expect(Self.files(in: cache).isEmpty)
        cache.store(Self.bytes(7), for: "flipped")
        #expect(cache.read("flipped")?.bytes == Self.bytes(7), "made again, then served")
        cache.database.flush()
        #expect(try cache.database.counterValues()["file_damaged"] == 2)
    }

    /// A made file's row changed on the disk (the frame time in its metadata): not served, removed.
    @Test func aChangedRowIsNotServed() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        cache.store(Self.bytes(1), meta: "4008000000000000 frame", for: "thumb")
        try cache.database.pool.write { db in try db.execute(sql: "UPDATE file SET meta = '4008000000000001 frame'") }
        #expect(cache.read("thumb") == nil)
        #expect(try cache.usage().files == 0 && Self.files(in: cache).isEmpty)
    }

    /// What a crash leaves: temporary files of dead writers (one whose lock file is gone, one whose
    /// lock is free: killed, perhaps not yet reaped), a final file never indexed, an index row
    /// whose file is gone. Opening removes them all; none is ever served. A live writer's
    /// temporary (one holding its lock, this process's first cache) stays.
    @Test func whatACrashLeftIsCleanedUpAtOpen() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        cache.store(Self.bytes(1), for: "kept")
        cache.store(Self.bytes(2), for: "lost")
        unlink(cache.folder + "/" + Checksum.fileName(for: "lost"))
        let half = cache.folder + "/" + DiskCache.temporaryPrefix + "4194305-00000000000000ab-abc"
        try Data(Self.bytes(3).prefix(100)).write(to: URL(fileURLWithPath: half))
        // A lock file nobody holds: its writer died (the kernel dropped its lock).
        let writers = folder.path + "/" + WriterLock.folderName
        #expect(FileManager.default.createFile(atPath: writers + "/4194306-00000000000000cd", contents: nil))
        let unlocked = cache.folder + "/" + DiskCache.temporaryPrefix + "4194306-00000000000000cd-abc"
        try Data(Self.bytes(3).prefix(100)).write(to: URL(fileURLWithPath: unlocked))
        let unindexed = cache.folder + "/" + Checksum.fileName(for: "never indexed")
        try Data(Self.bytes(4)).write(to: URL(fileURLWithPath: unindexed))
        let live = cache.writer.temporaryName(DiskCache.temporaryPrefix)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: cache.folder + "/" + live))

        let reopened = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        #expect(Self.files(in: reopened) == [live, Checksum.fileName(for: "kept")].sorted())
        #expect(!FileManager.default.fileExists(atPath: writers + "/4194306-00000000000000cd"), "a dead writer's lock file goes")
        #expect(reopened.read("never indexed") == nil)
        #expect(reopened.read("lost") == nil)
        #expect(reopened.read("kept")?.bytes == Self.bytes(1))
        #expect(try reopened.usage().files == 1)
    }

    @Test func clearEmptiesTheFolder() throws {
        let folder = CacheFolderFixture()
        let cache = try DiskCache(database: try folder.database(), capacity: 1 << 20, logger: Logger(label: "test"))
        for i in 0..<5 { cache.store(Self.bytes(UInt8(i)), for: "k\(i)") }
        try cache.clear()
        #expect(try cache.usage().files == 0)
        #expect(Self.files(in: cache).isEmpty)
    }

    @Test func checksumsTellBytesApart() {
        let a = Self.bytes(1, count: 1_001)
        var b = a
        b[1_000] ^= 0x80
        #expect(Checksum.of(a) != Checksum.of(b))
        #expect(Checksum.of(a) != Checksum.of(Array(a.prefix(1_000))))
        #expect(Checksum.of(a) == Checksum.of(a))
        #expect(Checksum.fileName(for: "a").count == 32 && Checksum.fileName(for: "a") != Checksum.fileName(for: "b"))
    }
}
