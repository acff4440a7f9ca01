import MediaKit

/// A folder of the source, mirrored: its entries are the source's, each a folder, a media folder
/// or a plain file (`MediaTree.sourceNode`). The root is the source folder itself.
final class SourceFolder: FolderNode, ImmediateAttributes {
    let path: SourcePath
    let placement: Placement?
    let key: NodeKey

    static let kind = "folder"

    init(path: SourcePath, placement: Placement?) {
        self.path = path
        self.placement = placement
        key = NodeKey(kind: Self.kind, path: path)
    }

    func current(in tree: MediaTree) throws -> any TreeNode {
        guard tree.sourceStat(path)?.isDirectory == true else { throw TreeError.notFound }
        return self
    }

    func attributes(in tree: MediaTree) throws -> Attributes {
        guard let stat = tree.sourceStat(path), stat.isDirectory else { throw TreeError.notFound }
        return tree.shownFolderAttributes(of: self, stat: stat)
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        let node = try tree.sourceNode(at: path.appending(name), parent: key)
        guard node == nil, tree.settings.layout == .server else { return node }
        return try serverEntry(named: name, in: tree)
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] { try listing(in: tree).entries }

    /// The entries sorted by name (bytes). Entries are stat'ed and classified in parallel, so
    /// media-named files not probed yet are probed several at a time (`EntryFanOut`: one slow
    /// file does not hold the others back), and media folders are listed ahead where they can
    /// be (`MediaTree.listingAhead`). In the server layout, with the entries beside its films
    /// (`serverEntries`).
    func listing(in tree: MediaTree) throws -> Listing {
        let shownAs = tree.absolute(path)
        let names: [Name]
        // Taken before the names are read: names kept under it are read again once it changes.
        let stat = tree.settings.layout == .server ? tree.sourceStat(path) : nil
        do {
            names = try DirectoryReader.names(of: shownAs).sorted()
        } catch {
            throw TreeError.io(path: shownAs.description, reason: error.description)
        }
        let own = try sourceEntries(names: names, in: tree)
        guard tree.settings.layout == .server else { return own }
        if let stat, stat.isDirectory { tree.keepFolderNames(FolderNames(stat: stat, names: names), of: path) }
        return Listing(entries: (own.entries + (try serverEntries(names: names, in: tree))).sorted { $0.name < $1.name })
    }

    /// The source's entries called `names`, each as the node it is, with the listings of media
    /// folders listed ahead.
    /// - Throws: `Pending` where another thread probes one of them (the listing is made again once
    ///   that is done); `AtOnce.GaveUp`.
    private func sourceEntries(names: [Name], in tree: MediaTree) throws -> Listing {
        let listed = ParallelResults<(entry: DirectoryEntry, ahead: (key: NodeKey, listing: Listing)?)?>(count: names.count, repeating: nil)
        let waiting = FirstError()
        EntryFanOut.forEach(names.count) { [names, path, key] i in
            // Folders, plain files and media folders: their attributes need no work but the probe.
            guard let node = waiting.catching({ try tree.sourceNode(at: path.appending(names[i]), parent: key) }) as? any ImmediateAttributes,
                  let attributes = waiting.catching({ try Pending.nilWhereFailing { try node.attributes(in: tree) } }) else { return }
            let ahead = tree.listingAhead(of: node).map { (key: node.key, listing: $0) }
            listed.set(i, to: (DirectoryEntry(name: names[i], attributes: attributes, keyHash: node.key.stableHash), ahead))
        }
        try waiting.rethrow()
        var listing = Listing(entries: [])
        for case let (entry, ahead)? in listed.all {
            if let ahead { listing.sublistings.append(Sublisting(index: listing.entries.count, key: ahead.key, listing: ahead.listing)) }
            listing.entries.append(entry)
        }
        return listing
    }
}
