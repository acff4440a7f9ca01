import MediaTree

/// A folder's children, as go-fuse's `Inode` keeps them, at next to no cost in memory: an entry
/// says the folder it was named in (`Entry.parent`), and a folder's listings hold its children's
/// key hashes, from which their numbers are found. So a folder's children are the entries its
/// listings name, found by key hash, plus the few in `Children`.
///
/// Which listings: the one the folder's entry keeps, the one made with the listing that named the
/// folder (`KeptListing.sublisting`), and any other an entry was numbered by or named after
/// (`Children.listings`): kept here until nothing else holds them. Every entry named in a listing
/// refers to it (`Named.listed`), so a listing still numbering entries is never let go.
extension NodeTable {
    /// What the listings of one folder do not give of its children.
    struct Children {
        /// Listings of the folder entries were numbered by that its entry does not give: one not
        /// kept (a source folder's, made anew at each opening), one replaced or dropped (a change).
        var listings: [KeptListing] = []
        /// Children no listing of the folder names (a name looked up that none lists: any time in
        /// `thumbs/`), or made from another source path than their name in a folder of the source
        /// says (a server layout's entries beside a film).
        var known: Set<UInt64> = []

        var isEmpty: Bool { listings.isEmpty && known.isEmpty }

        /// Lets go the listings only this holds (no entry refers to them); how many.
        mutating func prune() -> Int {
            var index = 0
            var dropped = 0
            while index < listings.count {
                if isKnownUniquelyReferenced(&listings[index]) {
                    listings.remove(at: index)
                    dropped += 1
                } else {
                    index += 1
                }
            }
            return dropped
        }
    }

    /// `Children` by folder number, for the folders that have any (in a listed library, its
    /// folders of the source: their listings are made anew at each opening and kept by none).
    struct ChildIndex {
        private(set) var folders: [UInt64: Children] = [:]
        /// The listings held, and how many were left at the last sweep (`sweep`).
        private var listingCount = 0
        private var sweptAt = 0
        /// Entries removed since the last sweep.
        private var removals = 0

        subscript(folder: UInt64) -> Children? { folders[folder] }

        /// Holds `listing` as one of the folder's (once), letting go those of the folder nothing
        /// else holds any more (a folder listed again and again holds few).
        mutating func add(_ listing: KeptListing, of folder: UInt64) {
            guard folders[folder]?.listings.contains(where: { $0 === listing }) != true else { return }
            listingCount -= folders[folder]?.prune() ?? 0
            folders[folder, default: Children()].listings.append(listing)
            listingCount += 1
            // Sweeps as the listings held double: a listing let go waits at most that long.
            if listingCount > 2 * sweptAt + 64 { sweep() }
        }

        /// Notes `child` as a child of `folder` no listing of it gives.
        mutating func addKnown(_ child: UInt64, to folder: UInt64) {
            folders[folder, default: Children()].known.insert(child)
        }

        /// The entry `number`, named in the folder numbered `parent`, went: it is no child any more,
        /// and has none (the kernel forgets a folder after all it held in it).
        mutating func removed(_ number: UInt64, from parent: UInt64?) {
            guard !folders.isEmpty else { return }
            if let parent, folders[parent] != nil {
                folders[parent]!.known.remove(number)
                if folders[parent]!.isEmpty { folders[parent] = nil }
            }
            if let own = folders.removeValue(forKey: number) { listingCount -= own.listings.count }
            removals += 1
            if removals > max(4_096, listingCount) { sweep() }
        }

        /// Lets go every listing only this holds.
        private mutating func sweep() {
            for folder in Array(folders.keys) {
                listingCount -= folders[folder]!.prune()
                if folders[folder]!.isEmpty { folders[folder] = nil }
            }
            sweptAt = listingCount
            removals = 0
        }
    }
}

extension NodeTable.Entry {
    /// The listing made with the one that named this folder entry, numbered `number`
    /// (`KeptListing.sublisting`).
    func ownSublisting(number: UInt64) -> KeptListing? {
        guard case .listed(let parent) = named.unheld else { return nil }
        return parent.sublisting(at: index, number: number)
    }
}

extension NodeTable.State {
    /// The listings of the folder numbered `folder` entries may be numbered by: the one its entry
    /// keeps, the one made with the listing that named it, and those `Children` holds.
    func listings(of folder: UInt64) -> [KeptListing] {
        var found: [KeptListing] = []
        func add(_ listing: KeptListing?) {
            if let listing, !found.contains(where: { $0 === listing }) { found.append(listing) }
        }
        if let entry = slots[folder], !entry.isTombstone {
            add(entry.listing)
            add(entry.ownSublisting(number: folder))
        }
        for listing in children[folder]?.listings ?? [] { add(listing) }
        return found
    }

    /// The listing of the folder numbered `folder` that names `name` as the key `keyHash`, and
    /// where: a name looked up there is entered as named in it.
    func listing(of folder: UInt64, naming name: Name, keyHash: UInt64) -> (KeptListing, Int)? {
        for listing in listings(of: folder) where listing.folder == folder {
            if let index = listing.index(named: name), listing.keyHash(at: index) == keyHash { return (listing, index) }
        }
        return nil
    }

    /// Calls `visit` with the number and entry of each child of the folder numbered `folder` the
    /// table holds (some more than once), counting the entries looked at in `looked`.
    func forEachChild(of folder: UInt64, looked: inout Int, _ visit: (UInt64, NodeTable.Entry) -> Void) {
        for listing in listings(of: folder) {
            for index in 0..<listing.count {
                looked += 1
                if let (number, entry) = live(listing.keyHash(at: index)), entry.parent == folder { visit(number, entry) }
            }
        }
        for number in children[folder]?.known ?? [] {
            looked += 1
            if let entry = slots[number], !entry.isTombstone, entry.parent == folder { visit(number, entry) }
        }
    }

    /// The number and entry of the key hash `keyHash`, if the table holds it: probed from `first`,
    /// by default the number the key asks for.
    func live(_ keyHash: UInt64, from first: UInt64? = nil) -> (number: UInt64, entry: NodeTable.Entry)? {
        var number = first ?? NodeKey.number(forHash: keyHash)
        while let entry = slots[number] {
            if !entry.isTombstone && entry.keyHash(at: number) == keyHash { return (number, entry) }
            number = NodeTable.next(number)
        }
        return nil
    }

    /// The entry numbered `number` was just made: its folder must find it. A listing it was
    /// numbered by that the folder's entry does not give is held; a name no listing gave is known.
    mutating func noteMade(_ number: UInt64) {
        guard let entry = slots[number] else { return }
        switch entry.named.unheld {
        case .listed(let listing):
            let folder = listing.folder
            if let owner = slots[folder], !owner.isTombstone,
               owner.listing === listing || owner.ownSublisting(number: folder) === listing { return }
            children.add(listing, of: folder)
            // A listing no entry keeps (a source folder's): the folder's path is said here only.
            noteHeld(folder, madeFrom: listing.folderPath)
        case .lookedUp(let looked):
            children.addKnown(number, to: looked.parent)
        case .root, .tombstone, .holding:
            break
        }
    }

    /// The entry numbered `number` holds something made from `path` (a node; a folder's listing):
    /// where its name in a folder of the source says another path (a server layout's entry beside
    /// a film), its folder knows it, so that a change of that path finds it.
    mutating func noteHeld(_ number: UInt64, madeFrom path: SourcePath) {
        guard let entry = slots[number], case .listed(let listing) = entry.named.unheld, listing.listsSourceEntries,
              !listing.hasSourcePath(path, at: entry.index) else { return }
        children.addKnown(number, to: listing.folder)
    }
}
