import Foundation
import Logging
import MediaKit

/// The virtual tree mediafs shows: the source mirrored, each media file a folder.
///
/// Thread-safe; every call may block on a probe, so callers that must stay responsive run these
/// calls off their own threads. Knows nothing of libfuse: answers are `Attributes`, listings,
/// `FileContent` and `TreeError`.
public final class MediaTree: Sendable {
    /// The absolute path of the source folder, without a trailing slash.
    public let sourceRoot: String
    /// `sourceRoot` with every symbolic link resolved: links in the source may point anywhere under it.
    let resolvedRoot: String
    public let inodes = InodeTable()
    let media: MediaService
    let logger: Logger
    /// Probe results by source identity: a changed file is a new key and is probed again.
    let probes = SharedWork<FileIdentity, MediaInfo>(capacity: 100_000)
    /// Rendered `info.json` by source identity and name.
    /// The source version each file was last opened at (for the kernel's page cache).
    let openedVersions = OpenedVersions()
    let infoDocuments = SharedWork<InfoKey, [UInt8]>(capacity: 4_096)
    let mountOwner: (uid: UInt32, gid: UInt32)

    struct InfoKey: Hashable, Sendable {
        var identity: FileIdentity
        var name: String
    }

    public init(sourceRoot: String, media: MediaService, logger: Logger) {
        var root = sourceRoot
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.sourceRoot = root
        if let resolved = realpath(root, nil) {
            self.resolvedRoot = String(cString: resolved)
            free(resolved)
        } else {
            self.resolvedRoot = root
        }
        self.media = media
        self.logger = logger
        self.mountOwner = (getuid(), getgid())
    }

    func absolute(_ rel: String) -> String {
        rel.isEmpty ? sourceRoot : sourceRoot + "/" + rel
    }

    /// The node named `name` in the folder `parent`, with its attributes.
    /// - Throws: `TreeError.notFound`, `.notDirectory`.
    public func lookup(parent: UInt64, name: String) throws -> Attributes {
        guard let parentNode = inodes.node(for: parent) else { throw TreeError.notFound }
        guard name != "." && name != ".." && !name.contains("/") else { throw TreeError.notFound }
        switch parentNode {
        case .sourceFolder(let rel):
            let childRel = RelPath.join(rel, name)
            guard let stat = sourceStat(childRel) else { throw TreeError.notFound }
            let node = classify(rel: childRel, stat: stat)
            return try attributes(of: node, stat: stat)
        case .mediaFolder(let rel):
            let stat = try validStat(of: parentNode)
            guard let node = mediaFolderChildren(rel: rel).first(where: { $0.name == name })?.node else {
                throw TreeError.notFound
            }
            return try attributes(of: node, stat: stat)
        case .plainFile, .original, .info:
            throw TreeError.notDirectory
        }
    }

    /// The attributes of the node numbered `inode`, from the source as it is now.
    /// - Throws: `TreeError.notFound` where the source is gone or has changed kind.
    public func attributes(of inode: UInt64) throws -> Attributes {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        return try attributes(of: node, stat: validStat(of: node))
    }

    /// The names in the folder numbered `inode`, sorted by name, each with its attributes.
    /// - Throws: `TreeError.notFound`, `.notDirectory`, `.io`.
    public func list(_ inode: UInt64) throws -> [DirectoryEntry] {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        let stat = try validStat(of: node)
        switch node {
        case .sourceFolder(let rel):
            return try listSourceFolder(rel: rel)
        case .mediaFolder(let rel):
            return try mediaFolderChildren(rel: rel).map {
                DirectoryEntry(name: $0.name, attributes: try attributes(of: $0.node, stat: stat))
            }
        case .plainFile, .original, .info:
            throw TreeError.notDirectory
        }
    }

    /// Opens the file numbered `inode` for reading.
    /// - Throws: `TreeError.isDirectory`, `.notFound`, `.io`.
    public func open(_ inode: UInt64) throws -> FileContent {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        let stat = try validStat(of: node)
        if node.isDirectory { throw TreeError.isDirectory }
        let unchanged = openedVersions.open(inode, at: stat.identity)
        switch node {
        case .plainFile(let rel), .original(let rel):
            return try SourceFileContent(path: absolute(rel), keepsKernelCache: unchanged)
        case .info(let rel):
            return BytesContent(bytes: try infoDocument(rel: rel, stat: stat), keepsKernelCache: unchanged)
        case .sourceFolder, .mediaFolder:
            throw TreeError.isDirectory
        }
    }
}
