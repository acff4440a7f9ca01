import MediaKit

/// The original media file inside its folder, under its own name: its bytes, size and times,
/// read straight from the source (FUSE passthrough where the kernel has it). Numbered per source
/// file, as a plain file (`PlainFile`).
final class OriginalFile: FileNode, ImmediateAttributes, MediaFolderEntry {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey

    static let kind = "original"

    init(version: MediaVersion, placement: Placement) {
        self.version = version
        self.placement = placement
        key = NodeKey(kind: Self.kind, path: version.path, stamp: version.identity.file)
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        [OriginalFile(version: folder.version, placement: folder.placement(of: folder.version.fileName))]
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        name == folder.version.fileName ? listed(in: folder, tree: tree).first : nil
    }

    /// The same source file: itself, or itself at the new version.
    /// - Throws: `TreeError.stale` where another file took the name (a rename over it).
    func current(in tree: MediaTree) throws -> any TreeNode {
        let now = try tree.currentVersion(of: version)
        if now === version { return self }
        guard now.identity.file == version.identity.file else { throw TreeError.stale }
        return OriginalFile(version: now, placement: placement!)
    }

    func attributes(in tree: MediaTree) throws -> Attributes {
        tree.shownFileAttributes(of: self, stat: version.stat)
    }

    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>) {
        reply(Result { try SourceFileContent(path: version.shownAs, version: version.identity) })
    }
}
