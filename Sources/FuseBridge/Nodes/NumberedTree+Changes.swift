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
    ///
    /// Each path's entries are found from the folder holding it, down (`NodeTable.forgetState
    /// (madeFrom:in:)`): a film's change looks at that film's entries, whatever the table holds
    /// besides. Changes that were lost (`everything`) look at every entry.
    public func invalidations(after changes: SourceChanges) -> [Invalidation] {
        let start = ContinuousClock.now
        var found: [Invalidation] = []
        var seen: Set<Invalidation> = []
        func add(_ invalidation: Invalidation) {
            if seen.insert(invalidation).inserted { found.append(invalidation) }
        }
        func stale(_ number: UInt64, _ entry: NodeTable.Entry) {
            if let (parent, name) = Self.placement(of: entry) { add(.entry(parent: parent, name: name)) }
            add(.inode(number))
        }
        var looked = 0
        for path in changes.paths.filter({ !$0.isRoot }).sorted() {
            guard let parent = table.existingNumber(for: MediaTree.folderKey(path.parent)) else { continue }
            add(.entry(parent: parent, name: path.lastName))
            add(.inode(parent))
            if !changes.everything { looked += table.forgetState(madeFrom: path, in: parent, stale) }
        }
        if changes.everything { looked += table.forgetEveryState(stale) }
        changeStatistics.record(entries: looked, since: start)
        return found
    }

    /// The number of the folder that lists `entry` (or where it was looked up) and its name there;
    /// nil for the root.
    private static func placement(of entry: NodeTable.Entry) -> (UInt64, Name)? {
        switch entry.origin {
        case .root, .tombstone: nil
        case .listed(let listing, let index): (listing.folder, listing.name(at: index))
        case .lookedUp(let parent, let name, _): (parent, name)
        }
    }
}
