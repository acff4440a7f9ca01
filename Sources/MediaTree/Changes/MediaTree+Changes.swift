/// Where source changes go: the FUSE layer, which knows which names and numbers the kernel holds
/// and so what it must be told to forget (the tree knows no numbers).
public protocol SourceChangeSink: AnyObject, Sendable {
    /// Called on the source watcher's thread, never on a request's.
    func sourceChanged(_ changes: SourceChanges)
}

/// From source changes to the nodes they make stale.
extension MediaTree {
    /// The key of the source folder at `path` (the root's at `.root`).
    public static func folderKey(_ path: SourcePath) -> NodeKey {
        NodeKey(kind: SourceFolder.kind, path: path)
    }

    /// The node of the source folder at `path`, made from the path alone (no folder above it is
    /// made or looked at): the root's for `.root`. Like any node, it is brought up to date before
    /// use (`current`: `TreeError.notFound` where no folder is there any more).
    public func sourceFolder(at path: SourcePath) -> any TreeNode {
        path.isRoot ? root : SourceFolder(path: path, placement: Placement(parent: Self.folderKey(path.parent), name: path.lastName))
    }

    /// The source path a node named `name` in the folder with key `folder` is made from: the
    /// source entry of that name in a source folder; the media file itself in a media folder and
    /// all below it.
    public static func sourcePath(of name: Name, listedIn folder: NodeKey) -> SourcePath {
        isSourceFolder(folder) ? folder.path.appending(name) : folder.path
    }

    /// Whether `folder` is a folder of the source (its entries are made from the source entries of
    /// their names), not a media folder or one in it (all made from the media file).
    public static func isSourceFolder(_ folder: NodeKey) -> Bool {
        folder.kind == SourceFolder.kind
    }
}
