import Foundation
import Glibc
import Logging
@testable import MediaTree
import Testing
import TestSupport

/// The cache folder is made private (`PrivateFolder`): everything mediafs keeps in it, and the
/// folder itself where it is mediafs's alone; never what it holds besides (a `--cache-dir` that is
/// someone's home, or /tmp).
@Suite struct PrivateFolderTests {
    static func mode(_ path: String) -> UInt32 {
        var st = stat()
        return lstat(path, &st) == 0 ? UInt32(st.st_mode & 0o7777) : 0
    }

    /// A cache folder as an older mediafs left it, at `folder/cache`: folders 0755, files 0644.
    static func openCache(in folder: TempFolder) throws -> String {
        let cache = try folder.makeFolder("cache")
        let database = try CacheDatabase(directory: cache, logger: Logger(label: "test"))
        let disk = try DiskCache(database: database, capacity: 1 << 20, logger: Logger(label: "test"))
        disk.store([1, 2, 3], for: "key")
        try FileManager.default.createDirectory(atPath: cache + "/tracks/set/audible", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: cache + "/tracks/set/audible/eng.mka", contents: Data([4]))
        expectSuccess(try Command.run(["chmod", "-R", "u=rwX,go=rX", cache]))
        return cache
    }

    @Test func aCacheFolderLeftOpenIsMadePrivateWhole() throws {
        let folder = try TempFolder("private-folder")
        defer { folder.remove() }
        let cache = try Self.openCache(in: folder)
        PrivateFolder.tighten(cache, own: CacheDatabase.entryNames, logger: Logger(label: "test"))
        for path in [cache, cache + "/files", cache + "/tracks", cache + "/tracks/set", cache + "/tracks/set/audible"] {
            #expect(Self.mode(path) == 0o700, "\(path)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: cache + "/files").map { cache + "/files/" + $0 }
        for path in files + [cache + "/probes.sqlite", cache + "/tracks/set/audible/eng.mka"] {
            #expect(Self.mode(path) == 0o600, "\(path)")
        }
    }

    @Test func aFolderHoldingMoreThanTheCacheKeepsItsModeAndWhatIsNotOurs() throws {
        let folder = try TempFolder("private-folder-shared")
        defer { folder.remove() }
        let cache = try Self.openCache(in: folder)
        FileManager.default.createFile(atPath: cache + "/notes.txt", contents: Data("mine".utf8))
        try FileManager.default.createDirectory(atPath: cache + "/Photos", withIntermediateDirectories: false)
        #expect(chmod(cache + "/notes.txt", 0o644) == 0 && chmod(cache + "/Photos", 0o755) == 0)
        PrivateFolder.tighten(cache, own: CacheDatabase.entryNames, logger: Logger(label: "test"))
        #expect(Self.mode(cache) == 0o755 && Self.mode(cache + "/notes.txt") == 0o644 && Self.mode(cache + "/Photos") == 0o755)
        #expect(Self.mode(cache + "/files") == 0o700 && Self.mode(cache + "/tracks/set/audible/eng.mka") == 0o600)
        #expect(Self.mode(cache + "/probes.sqlite") == 0o600)
    }
}

private func expectSuccess(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.succeeded, "\(result)", sourceLocation: sourceLocation)
}
