import MediaTree

/// The entries a source change makes stale, found from the folder changed (NodeTable+Children).
extension NodeTable {
    /// Calls `body` with each entry made from the source path `path` and forgets what it keeps
    /// (`Entry.forgetState`): the entries of the folder numbered `folder` (the source folder
    /// holding `path`) named as `path` is (a media file's folder, a plain file, a folder), or
    /// holding something made from it under another name (a server layout's entries beside a
    /// film), and everything under those (the media folder's entries; the folder's whole
    /// subtree). Nothing else is looked at: the kernel holds a folder while it holds anything in it
    /// (a dentry holds its parent), so a walk down through the entries the table holds finds all
    /// the kernel may hold. Returns how many entries it looked at. `body` must not call back into
    /// the table.
    func forgetState(madeFrom path: SourcePath, in folder: UInt64, _ body: (UInt64, Entry) -> Void) -> Int {
        state.withLock { state in
            var looked = 0
            var pending = state.entries(in: folder, madeFrom: path, looked: &looked)
            var seen: Set<UInt64> = []
            while let number = pending.popLast() {
                guard seen.insert(number).inserted, let entry = state.slots[number], !entry.isTombstone else { continue }
                body(number, entry)
                state.forEachChild(of: number, looked: &looked) { child, _ in pending.append(child) }
                state.forgetState(of: number)
            }
            return looked
        }
    }

    /// Calls `body` with every entry but the root's and forgets what each keeps (changes were
    /// lost: anything may have changed). Returns how many entries it looked at.
    func forgetEveryState(_ body: (UInt64, Entry) -> Void) -> Int {
        state.withLock { state in
            var looked = 0
            var dropped: [(number: UInt64, listing: KeptListing)] = []
            state.slots.updateEach { number, entry in
                looked += 1
                guard number != NodeKey.rootNumber, !entry.isTombstone else { return }
                body(number, entry)
                if let listing = entry.forgetState() { dropped.append((number, listing)) }
            }
            for (number, listing) in dropped { state.children.add(listing, of: number) }
            return looked
        }
    }
}

extension NodeTable.State {
    /// The entries of the folder numbered `folder` made from `path`, a path in it: named as its
    /// last name in a listing of the folder, or known to the folder (`Children.known`) and named
    /// so or made from it. A listing of a source folder is searched by name, not entry by entry.
    func entries(in folder: UInt64, madeFrom path: SourcePath, looked: inout Int) -> [UInt64] {
        let name = path.lastName
        var found: [UInt64] = []
        for listing in listings(of: folder) {
            guard let index = listing.index(named: name) else { continue }
            looked += 1
            if let (number, entry) = live(listing.keyHash(at: index)), entry.parent == folder { found.append(number) }
        }
        for number in children[folder]?.known ?? [] {
            looked += 1
            guard let entry = slots[number], !entry.isTombstone, entry.parent == folder else { continue }
            if Self.isNamed(entry, name) || madePath(of: number, entry) == path { found.append(number) }
        }
        return found
    }

    /// Whether `entry` was named `name`.
    private static func isNamed(_ entry: NodeTable.Entry, _ name: Name) -> Bool {
        switch entry.origin {
        case .listed(let listing, let index): listing.hasName(name, at: index)
        case .lookedUp(_, let own, _): own == name
        case .root, .tombstone: false
        }
    }

    /// The source path the node of the entry numbered `number` is made from: its node's, its
    /// listing's, else what its name says.
    private func madePath(of number: UInt64, _ entry: NodeTable.Entry) -> SourcePath? {
        if let node = entry.node { return node.key.path }
        switch entry.origin {
        case .lookedUp(_, _, let path): return path
        case .listed(let listing, let index): return listings(of: number).first?.folderPath ?? listing.sourcePath(of: index)
        case .root, .tombstone: return nil
        }
    }

    /// Forgets what the entry numbered `number` keeps; a listing it kept may still number entries.
    mutating func forgetState(of number: UInt64) {
        if let dropped = slots.modify(number, { $0.forgetState() }) ?? nil { children.add(dropped, of: number) }
    }
}
