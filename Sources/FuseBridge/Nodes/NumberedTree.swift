import MediaKit
import MediaTree

/// The tree reached by inode numbers, as the kernel reaches it: each operation finds the node a
/// number stands for in the node table (made from the name it was listed under where the entry
/// holds none), hands it to the tree, and numbers what comes back, counting the lookups the kernel
/// is given. Knows no libfuse: `FuseFileSystem` answers the kernel with it, and tests reach the
/// tree through it the same way.
public final class NumberedTree: Sendable {
    public let tree: MediaTree
    let table: NodeTable
    /// The nodes made or looked up last, by number: the kernel asks about a name just looked up
    /// (its attributes, an open), an `ls -lR` about the same folders again and again, and a node is
    /// made from its folder's (`node`). Bounded, where holding every listed folder's node in its
    /// entry took a third of a listed library's memory.
    private let recent = MemoryCache<UInt64, Recent>(capacity: 4_096)
    /// What source changes have cost (`invalidations(after:)`).
    let changeStatistics = ChangeStatistics()

    private struct Recent: Sendable {
        let keyHash: UInt64
        let node: any TreeNode
    }

    public init(tree: MediaTree) {
        self.tree = tree
        table = NodeTable(root: tree.root)
    }

    /// The node numbered `number`: the one its entry holds (the root, an open file), else made
    /// from the name the kernel was given it under, in its folder's node: a folder of the source
    /// is made from its path alone (`MediaTree.sourceFolder(at:)`), any other (in a media folder)
    /// the same way as this one, or found among the nodes made last. So no name is walked from the
    /// root: at most the few folders of one media folder, down from it. `hold`s it in the entry (an
    /// open file: its version must outlive the source's).
    /// - Throws: `TreeError.notFound` for a number the table does not hold; `.stale` where that name
    ///   now stands for another node (the kernel looks the name up again); whatever making the
    ///   folder's child throws (`MediaTree.child(named:in:)`).
    func node(_ number: UInt64, hold: Bool = false) throws -> any TreeNode {
        guard let entry = table.entry(number) else { throw TreeError.notFound }
        if let node = entry.node { return node }
        if let made = recent.value(for: number), made.keyHash == entry.keyHash(at: number) { return made.node }
        let parent: UInt64, name: Name
        switch entry.origin {
        case .listed(let listing, let index): (parent, name) = (listing.folder, listing.name(at: index))
        case .lookedUp(let folder, let named, _): (parent, name) = (folder, named)
        case .root, .tombstone: throw TreeError.notFound
        }
        guard parent != number else { throw TreeError.stale }
        let folder = try entry.sourceFolder.map(sourceFolder(at:)) ?? node(parent)
        guard let child = try tree.child(named: name, in: folder), child.key.stableHash == entry.keyHash(at: number) else {
            throw TreeError.stale
        }
        if hold { table.hold(child, for: number) }
        remember(child, as: number)
        return child
    }

    /// The folder of the source at `path`, as it is now; `.stale` where none is there any more,
    /// as the folder's own node, made from its name in the folder above, would answer.
    private func sourceFolder(at path: SourcePath) throws -> any TreeNode {
        guard !path.isRoot else { return tree.root }
        do {
            return try tree.current(tree.sourceFolder(at: path))
        } catch TreeError.notFound {
            throw TreeError.stale
        }
    }

    private func remember(_ node: any TreeNode, as number: UInt64) {
        recent.insert(Recent(keyHash: node.key.stableHash, node: node), cost: 1, for: number)
    }

    /// The child `name` of the folder numbered `parent`, numbered, with one lookup counted, and the
    /// generation of its number (`InodeGeneration`).
    /// Errors: those of `MediaTree.lookup`.
    public func lookup(parent: UInt64, name: Name, reply: @escaping Reply<(attributes: Attributes, generation: UInt64)>) {
        tree.resuming(reply) { [self] reply in
            let folder = try node(parent)
            let inSourceFolder = MediaTree.isSourceFolder(folder.key)
            tree.lookup(name, in: folder) { [self] result in
                reply(result.map { child, attributes in
                    var numbered = attributes
                    numbered.inode = table.enter(child, as: name, in: parent, parentIsSourceFolder: inSourceFolder, lookups: 1)
                    remember(child, as: numbered.inode)
                    return (numbered, InodeGeneration.of(number: numbered.inode, keyHash: child.key.stableHash))
                })
            }
        }
    }

    /// The attributes of the node numbered `number` (`MediaTree.attributes(of:reply:)`).
    public func attributes(of number: UInt64, reply: @escaping Reply<Attributes>) {
        tree.resuming(reply) { [self] reply in
            tree.attributes(of: try node(number)) { result in
                reply(result.map { attributes in
                    var numbered = attributes
                    numbered.inode = number
                    return numbered
                })
            }
        }
    }

    /// The listing of the folder numbered `number` where it can be had at once: kept from before,
    /// its source unchanged, or made from memory (`MediaTree.listAtOnce`), with nothing waited for
    /// on the way (`AtOnce`: making the folder's node may need a probe, or a file being written to
    /// settle). Nil where the request must wait its turn on a worker (`listing(of:reply:)`).
    public func listingAtOnce(_ number: UInt64) -> Result<KeptListing, Error>? {
        if let kept = keptListing(of: number), let source = kept.source, tree.isUnchanged(source) { return .success(kept) }
        let made = AtOnce.run { () -> (folder: any TreeNode, listing: Result<Listing, Error>)? in
            guard let folder = try? node(number), let listing = tree.listAtOnce(folder) else { return nil }
            return (folder, listing)
        }
        return made.map { made in made.listing.map { kept($0, of: made.folder, number: number) } }
    }

    /// The listing kept for the folder numbered `number`: its own, or the one made with the listing
    /// that numbered it (`KeptListing.sublisting`), which its entry needs not hold as well.
    private func keptListing(of number: UInt64) -> KeptListing? {
        guard let entry = table.entry(number) else { return nil }
        if let kept = entry.listing { return kept }
        guard case .listed(let parent, let index) = entry.origin else { return nil }
        return parent.sublisting(at: index, number: number)
    }

    /// The listing of the folder numbered `number`, made now (it may read the disk or probe).
    public func listing(of number: UInt64, reply: @escaping Reply<KeptListing>) {
        tree.resuming(reply) { [self] reply in
            let folder = try node(number)
            tree.list(folder) { [self] result in reply(result.map { kept($0, of: folder, number: number) }) }
        }
    }

    private func kept(_ listing: Listing, of folder: any TreeNode, number: UInt64) -> KeptListing {
        let kept = KeptListing(folder: number, folderKey: folder.key, listing: listing)
        if kept.isLasting { table.keep(kept, for: number) }
        return kept
    }

    /// The numbers of the entries at `positions` of `listing`, one lookup counted for each: what a
    /// readdirplus reply gives (0 for an entry known by name and type only, which is not counted).
    public func enter(_ listing: KeptListing, positions: Range<Int>, into numbers: UnsafeMutableBufferPointer<UInt64>) {
        table.enter(listing, positions: positions, into: numbers)
    }

    /// The number of the entry at `index` of `listing`, one lookup counted.
    public func enter(_ listing: KeptListing, index: Int) -> UInt64 {
        table.enter(listing, index: index)
    }

    /// Opens the file numbered `number` (`MediaTree.open`), and whether the kernel may keep the pages
    /// it cached at its previous open (the same version of the source).
    public func open(_ number: UInt64, reply: @escaping Reply<(content: any FileContent, keepsCache: Bool)>) {
        tree.resuming(reply) { [self] reply in
            tree.open(try node(number, hold: true)) { [table] result in
                reply(result.map { ($0, table.open(number, at: $0.version)) })
            }
        }
    }

    /// The names of the extended attributes of the node numbered `number`.
    public func extendedAttributeNames(of number: UInt64, reply: @escaping Reply<[String]>) {
        tree.resuming(reply) { [self] reply in
            tree.extendedAttributeNames(of: try node(number), reply: reply)
        }
    }

    /// The extended attribute `name` of the node numbered `number`; the root's statistics with the
    /// table's counts (`inodes`, `listings_kept`), the only attribute that walks the table, and what
    /// source changes have cost (`ChangeStatistics`).
    public func extendedAttribute(_ name: String, of number: UInt64, reply: @escaping Reply<[UInt8]>) {
        tree.resuming(reply) { [self] reply in
            tree.extendedAttribute(name, of: try node(number), extraStatistics: { [table, changeStatistics] in
                let counts = table.counts
                return [("inodes", counts.numbers), ("listings_kept", counts.listings)] + changeStatistics.fields
            }, reply: reply)
        }
    }

    /// Takes `count` lookups off `number` (the kernel forgot them).
    public func forget(_ number: UInt64, count: UInt64) {
        table.forget(number, count: count)
    }

    /// Whether the kernel holds `number` (a lookup counted, or the root).
    public func isHeld(_ number: UInt64) -> Bool {
        number == NodeKey.rootNumber || table.lookups(of: number) > 0
    }

    /// Whether the table holds `number` at all.
    public func holds(_ number: UInt64) -> Bool { table.entry(number) != nil }

    /// How many numbers the table holds.
    public var count: Int { table.counts.numbers }
}
