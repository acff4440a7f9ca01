import MediaTree

/// Something the kernel may hold that a source change made stale.
public enum Invalidation: Hashable, Sendable {
    /// The name `name` in the folder numbered `parent`: the kernel must look it up again.
    case entry(parent: UInt64, name: Name)
    /// The node numbered `inode`: its attributes and cached bytes must be asked for again.
    case inode(UInt64)
}

/// From source changes to what the kernel must be told.
extension NumberedTree {
    /// The names and numbers that `changes` make stale, among those the table holds (the kernel
    /// can hold no other): for each changed path, the folder holding it (its listing and times) and
    /// the path's name there, and every node made from the path (for a media file, its folder and
    /// all in it), or from anything under it (a folder). Also drops what the table keeps for them
    /// (a file's version at its last open, a folder's listing). Everything the tree keeps is keyed
    /// by the source's identity (device, inode, size, mtime), which a change renews.
    public func invalidations(after changes: SourceChanges) -> [Invalidation] {
        let paths = changes.paths.filter { !$0.isRoot }.sorted()
        var found: [Invalidation] = []
        var seen: Set<Invalidation> = []
        func add(_ invalidation: Invalidation) {
            if seen.insert(invalidation).inserted { found.append(invalidation) }
        }
        var folders: [(path: SourcePath, subtree: Bool)] = []
        for path in paths {
            if let parent = table.existingNumber(for: MediaTree.folderKey(path.parent)) {
                add(.entry(parent: parent, name: path.lastName))
                add(.inode(parent))
            }
            folders.append((path, table.existingNumber(for: MediaTree.folderKey(path)) != nil))
        }
        table.update { entries in
            for (number, entry) in entries where number != NodeKey.rootNumber {
                guard let origin = Self.origin(of: entry),
                      changes.everything || folders.contains(where: { origin.isMade(from: $0.path, subtree: $0.subtree) })
                else { continue }
                if let (parent, name) = origin.placement { add(.entry(parent: parent, name: name)) }
                add(.inode(number))
                entries[number]!.opened = nil
                entries[number]!.listing = nil
            }
        }
        return found
    }

    /// Where an entry was named and what its source is, without making its node.
    private struct EntryOrigin {
        /// The folder numbered … lists it as …; nil for a node the table holds with no name.
        var placement: (UInt64, Name)?
        /// The folder key it is listed under (its source path follows), or its own source path.
        var listedIn: NodeKey?
        var ownPath: SourcePath?
        var name: Name

        /// Whether it is made from `path`, or with `subtree` from anything under it, compared
        /// without making its source path where it is listed in a source folder.
        func isMade(from path: SourcePath, subtree: Bool) -> Bool {
            if let ownPath { return subtree ? ownPath.isWithin(path) : ownPath == path }
            guard let folder = listedIn else { return false }
            let isSourceFolder = folder.kind == MediaTree.folderKey(.root).kind
            guard isSourceFolder else { return subtree ? folder.path.isWithin(path) : folder.path == path }
            if folder.path == path.parent && name == path.lastName { return true }
            return subtree && folder.path.isWithin(path)
        }
    }

    private static func origin(of entry: NodeTable.Entry) -> EntryOrigin? {
        switch entry.origin {
        case .root, .tombstone:
            return nil
        case .listed(let listing, let index):
            let name = listing.entries[index].name
            if let node = entry.node {
                return EntryOrigin(placement: (listing.folder, name), ownPath: node.key.path, name: name)
            }
            return EntryOrigin(placement: (listing.folder, name), listedIn: listing.folderKey, name: name)
        case .lookedUp(let parent, let name):
            return EntryOrigin(placement: (parent, name), ownPath: entry.node?.key.path, name: name)
        }
    }
}
