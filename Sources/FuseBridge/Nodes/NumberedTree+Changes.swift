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
        let start = ContinuousClock.now
        var looked = 0
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
        table.updateEach { number, entry in
            looked += 1
            guard number != NodeKey.rootNumber,
                  changes.everything || folders.contains(where: { Self.isMade(entry, from: $0.path, subtree: $0.subtree) })
            else { return }
            if let (parent, name) = Self.placement(of: entry) { add(.entry(parent: parent, name: name)) }
            add(.inode(number))
            entry.forgetState()
        }
        changeStatistics.record(entries: looked, since: start)
        return found
    }

    /// Whether `entry` is made from `path`, or with `subtree` from anything under it; compared where
    /// its listing holds its name (a change scans every entry: no name or node is made).
    private static func isMade(_ entry: NodeTable.Entry, from path: SourcePath, subtree: Bool) -> Bool {
        func within(_ own: SourcePath) -> Bool { subtree ? own.isWithin(path) : own == path }
        switch entry.origin {
        case .root, .tombstone:
            return false
        case .lookedUp(_, _, let own):
            return within(own)
        case .listed(let listing, let index):
            if let node = entry.node { return within(node.key.path) }
            let folder = listing.folderPath
            guard listing.listsSourceEntries else { return within(folder) }
            if folder == path.parent && listing.hasName(path.lastName, at: index) { return true }
            return subtree && folder.isWithin(path)
        }
    }

    /// The folder numbered … that lists `entry` as …; nil for the root.
    private static func placement(of entry: NodeTable.Entry) -> (UInt64, Name)? {
        switch entry.origin {
        case .root, .tombstone: nil
        case .listed(let listing, let index): (listing.folder, listing.name(at: index))
        case .lookedUp(let parent, let name, _): (parent, name)
        }
    }
}
