import Foundation
import Glibc

/// The index of a cache folder's disk cache (the `file` table of its `probes.sqlite`), read with
/// Python's sqlite3, and how it agrees with the folders it indexes: for tests of what mounts
/// sharing a folder, or a full disk, leave behind.
public struct CacheIndex: Sendable {
    public struct Row: Hashable, Sendable, Decodable {
        public let key: String
        public let name: String
        public let size: Int64
        public let kind: String
    }

    public let folder: String
    public let rows: [Row]

    /// Reads the index of the cache folder `folder` (no mount should be writing to it).
    /// - Throws: `HarnessError` when it cannot be read.
    public init(_ folder: String) throws {
        self.folder = folder
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            rows = db.execute("SELECT key, name, size, kind FROM file ORDER BY key").fetchall()
            print(json.dumps([dict(key=k, name=n, size=s, kind=t) for k, n, s, t in rows]))
            """
        let result = try Command.run(["python3", "-c", script, folder + "/probes.sqlite"])
        guard result.succeeded else { throw HarnessError("cannot read the index of \(folder): \(result)") }
        rows = try JSONDecoder().decode([Row].self, from: Data(result.stdout.utf8))
    }

    /// The bytes the index counts (bounded by `--cache-size`).
    public var bytes: Int64 { rows.reduce(0) { $0 + $1.size } }

    /// Where index and folders disagree: a row whose file (or track set folder) is missing or of
    /// another size, a file or set folder no row names, a temporary or pass folder left over.
    public var disagreements: [String] {
        var found: [String] = []
        let files = Dictionary(uniqueKeysWithValues: rows.filter { $0.kind == "file" }.map { ($0.name, $0.size) })
        for name in Self.names(in: folder + "/files") {
            if name.hasPrefix(".") { found.append("left over: files/\(name)") } else if files[name] == nil { found.append("not indexed: files/\(name)") }
        }
        for (name, size) in files where Self.size(folder + "/files/" + name) != size {
            found.append("files/\(name): indexed as \(size) bytes, \(Self.size(folder + "/files/" + name).map(String.init) ?? "missing")")
        }
        let sets = Dictionary(uniqueKeysWithValues: rows.filter { $0.kind == "tracks" }.map { ($0.name, $0.size) })
        for name in Self.names(in: folder + "/tracks") {
            if name.hasPrefix(".") { found.append("left over: tracks/\(name)") } else if sets[name] == nil { found.append("not indexed: tracks/\(name)") }
        }
        for (name, size) in sets {
            let onDisk = Self.bytes(under: folder + "/tracks/" + name)
            if onDisk != size { found.append("tracks/\(name): indexed as \(size) bytes, \(onDisk) on disk") }
        }
        return found
    }

    private static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    private static func size(_ path: String) -> Int64? {
        var info = stat()
        return lstat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// The bytes of the regular files under `folder`.
    private static func bytes(under folder: String) -> Int64 {
        var total: Int64 = 0
        let walker = FileManager.default.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            var info = stat()
            if lstat(folder + "/" + relative, &info) == 0 && info.st_mode & S_IFMT == S_IFREG { total += Int64(info.st_size) }
        }
        return total
    }
}
