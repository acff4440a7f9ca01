import MediaKit

/// A file of the source that is not shown as media: its bytes, size and times pass through, read
/// straight from the source file (FUSE passthrough where the kernel has it).
///
/// Numbered per source file (`NodeKey.stamp` is the file's inode): a file replaced by another (a
/// rename over it) gets a new number, as on a disk; the kernel refuses to open one inode with two
/// backing files at once.
final class PlainFile: FileNode, ImmediateAttributes {
    let path: SourcePath
    let stat: SourceStat
    let placement: Placement?
    let key: NodeKey

    static let kind = "plain"

    init(path: SourcePath, stat: SourceStat, placement: Placement) {
        self.path = path
        self.stat = stat
        self.placement = placement
        key = NodeKey(kind: Self.kind, path: path, stamp: stat.identity.file)
    }

    /// Still a plain file of the same source file: itself, or itself with the new stat (new bytes,
    /// or a new owner, group or mode, which the kernel checks readers against).
    /// - Throws: `TreeError.notFound` where it is gone or is now a folder or media; `.stale` where
    ///   another file took its name.
    func current(in tree: MediaTree) throws -> any TreeNode {
        guard let now = tree.sourceStat(path) else { throw TreeError.notFound }
        if now.isSameVersion(as: stat) { return self }
        guard let placement, let node = try tree.sourceNode(at: path, parent: placement.parent) as? PlainFile else {
            throw TreeError.notFound
        }
        guard node.key == key else { throw TreeError.stale }
        return node
    }

    func attributes(in tree: MediaTree) throws -> Attributes {
        tree.shownFileAttributes(of: self, stat: stat)
    }

    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>) {
        reply(Result { try SourceFileContent(path: tree.absolute(path), version: stat.identity) })
    }
}
