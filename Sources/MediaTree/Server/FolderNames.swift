import MediaKit

/// The names of one source folder, read once and kept while the folder stays as it was (its stat:
/// an entry added, removed or renamed changes its modification time), so that resolving a name
/// beside a film needs no listing: the films a name may belong to are found by their base names
/// (`films(beside:)`), and only those are probed.
struct FolderNames: Sendable {
    /// The folder's stat when its names were read (nil: names given from outside the tree).
    let stat: SourceStat?
    /// Every name in the folder: a made name that a source entry has is not shown.
    let all: Set<Name>
    /// The names with a media extension, by their base name (`ServerNames.baseName`), each list in
    /// name order.
    let filesByBase: [[UInt8]: [Name]]

    init(stat: SourceStat, names: [Name]) {
        self.stat = stat
        all = Set(names)
        filesByBase = Self.filesByBase(names)
    }

    /// The names of a folder seen from outside the tree (`mediafs warm`, through a mount), with
    /// no stat.
    init(names: [Name]) {
        stat = nil
        all = Set(names)
        filesByBase = Self.filesByBase(names)
    }

    private static func filesByBase(_ names: [Name]) -> [[UInt8]: [Name]] {
        var byBase: [[UInt8]: [Name]] = [:]
        for name in names.sorted() where MediaNames.isCandidate(name) {
            byBase[ServerNames.baseName(of: name).bytes, default: []].append(name)
        }
        return byBase
    }

    /// The files with a media extension whose base name `name` starts with, followed by `.` or `-`
    /// (every name the server layout makes beside a film is its base name, then one of them), in
    /// name order: the films `name` may belong to.
    func films(beside name: Name) -> [Name] {
        let found = Self.separators(in: name).flatMap { filesByBase[Array(name.bytes[..<$0])] ?? [] }
        return found.count > 1 ? Array(Set(found)).sorted() : found
    }

    /// The positions in `name` of a `.` or `-` after its first byte: where a film's base name may end.
    static func separators(in name: Name) -> [Int] {
        name.bytes.indices.dropFirst().filter { name.bytes[$0] == 0x2E || name.bytes[$0] == 0x2D }
    }

    /// The costs of a folder's names kept in memory are counted in names: at most this many are kept.
    static let keptNames = 1 << 20
}

extension MediaTree {
    /// The names of the source folder at `path`, as kept while the folder is unchanged (read again
    /// when it changed); nil where it is not a folder or cannot be read.
    func folderNames(of path: SourcePath) -> FolderNames? {
        guard let stat = sourceStat(path), stat.isDirectory else { return nil }
        if let kept = serverFolderNames.value(for: path), kept.stat == stat { return kept }
        guard let names = try? DirectoryReader.names(of: absolute(path)) else { return nil }
        return keepFolderNames(FolderNames(stat: stat, names: names), of: path)
    }

    /// Keeps `names` as the names of the folder at `path`.
    @discardableResult
    func keepFolderNames(_ names: FolderNames, of path: SourcePath) -> FolderNames {
        serverFolderNames.insert(names, cost: names.all.count + 1, for: path)
        return names
    }
}
