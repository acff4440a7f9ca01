/// From source changes to the nodes they make stale.
extension MediaTree {
    /// The names and nodes that `changes` make stale, among those the tree has numbered (the kernel
    /// can hold no other): for each changed path, the folder holding it (its listing and times) and
    /// the path's name there, and every node made from the path (for a media file, its folder and
    /// all in it), or from anything under it (a folder). Also drops what the tree keeps for those
    /// nodes by number (the version each was last opened at). Everything else the tree keeps is
    /// keyed by the source's identity (device, inode, size, mtime), which a change renews.
    public func invalidations(after changes: SourceChanges) -> [Invalidation] {
        var found: [Invalidation] = []
        var seen: Set<Invalidation> = []
        func add(_ invalidation: Invalidation) {
            if seen.insert(invalidation).inserted { found.append(invalidation) }
        }
        var stale: [(node: any TreeNode, number: UInt64)] = []
        if changes.everything {
            stale = inodes.numbered(at: .root, subtree: true)
        } else {
            for path in changes.paths.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) where !path.isRoot {
                if let folder = inodes.existingNumber(for: NodeKey(kind: SourceFolder.kind, path: path.parent)) {
                    add(.entry(parent: folder, name: path.lastName))
                    add(.inode(folder))
                }
                let isFolder = inodes.existingNumber(for: NodeKey(kind: SourceFolder.kind, path: path)) != nil
                stale += inodes.numbered(at: path, subtree: isFolder)
            }
        }
        for (node, number) in stale {
            if let placement = node.placement, let parent = inodes.existingNumber(for: placement.parent) {
                add(.entry(parent: parent, name: placement.name))
            }
            add(.inode(number))
        }
        openedVersions.forget(stale.map(\.number))
        return found
    }
}
