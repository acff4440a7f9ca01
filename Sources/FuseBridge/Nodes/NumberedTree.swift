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

    public init(tree: MediaTree) {
        self.tree = tree
        table = NodeTable(root: tree.root)
    }

    /// The node numbered `number`: the entry's, or made from the name it was listed under (kept in
    /// the entry with `keep`: a folder, an open file).
    /// - Throws: `TreeError.notFound` for a number the table does not hold; `.stale` where the name
    ///   it was listed under now stands for another node (the kernel looks the name up again).
    func node(_ number: UInt64, keep: Bool = false) throws -> any TreeNode {
        guard let entry = table.entry(number) else { throw TreeError.notFound }
        if let node = entry.node { return node }
        guard case .listed(let listing, let index) = entry.origin, listing.folder != number else { throw TreeError.notFound }
        let folder = try node(listing.folder, keep: true)
        guard let child = try tree.child(named: listing.entries[index].name, in: folder),
              child.key.stableHash == entry.keyHash else { throw TreeError.stale }
        if keep { table.hold(child, for: number) }
        return child
    }

    /// The child `name` of the folder numbered `parent`, numbered, with one lookup counted.
    /// Errors: those of `MediaTree.lookup`.
    public func lookup(parent: UInt64, name: Name, reply: @escaping Reply<Attributes>) {
        do {
            let folder = try node(parent, keep: true)
            tree.lookup(name, in: folder) { [table] result in
                reply(result.map { child, attributes in
                    var numbered = attributes
                    numbered.inode = table.enter(child, as: name, in: parent, lookups: 1)
                    return numbered
                })
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// The attributes of the node numbered `number` (`MediaTree.attributes(of:reply:)`).
    public func attributes(of number: UInt64, reply: @escaping Reply<Attributes>) {
        do {
            tree.attributes(of: try node(number)) { result in
                reply(result.map { attributes in
                    var numbered = attributes
                    numbered.inode = number
                    return numbered
                })
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// The listing of the folder numbered `number` where it can be had at once: kept from before,
    /// its source unchanged, or made from memory (`MediaTree.listAtOnce`). Nil where the request
    /// must wait its turn on a worker (`listing(of:reply:)`).
    public func listingAtOnce(_ number: UInt64) -> Result<KeptListing, Error>? {
        if let kept = table.entry(number)?.listing, let source = kept.source, tree.isUnchanged(source) { return .success(kept) }
        guard let folder = try? node(number, keep: true), let listing = tree.listAtOnce(folder) else { return nil }
        return listing.map { kept($0, of: folder, number: number) }
    }

    /// The listing of the folder numbered `number`, made now (it may read the disk or probe).
    public func listing(of number: UInt64, reply: @escaping Reply<KeptListing>) {
        do {
            let folder = try node(number, keep: true)
            tree.list(folder) { [self] result in reply(result.map { kept($0, of: folder, number: number) }) }
        } catch {
            reply(.failure(error))
        }
    }

    private func kept(_ listing: Listing, of folder: any TreeNode, number: UInt64) -> KeptListing {
        let kept = KeptListing(folder: number, folderKey: folder.key, listing: listing)
        if kept.isLasting { table.keep(kept, for: number) }
        return kept
    }

    /// The number of the entry at `index` of `listing`, one lookup counted: what readdirplus gives.
    public func enter(_ listing: KeptListing, index: Int) -> UInt64 {
        table.enter(listing, index: index)
    }

    /// Opens the file numbered `number` (`MediaTree.open`), and whether the kernel may keep the pages
    /// it cached at its previous open (the same version of the source).
    public func open(_ number: UInt64, reply: @escaping Reply<(content: any FileContent, keepsCache: Bool)>) {
        do {
            tree.open(try node(number, keep: true)) { [table] result in
                reply(result.map { ($0, table.open(number, at: $0.version)) })
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// The names of the extended attributes of the node numbered `number`.
    public func extendedAttributeNames(of number: UInt64, reply: @escaping Reply<[String]>) {
        do {
            tree.extendedAttributeNames(of: try node(number), reply: reply)
        } catch {
            reply(.failure(error))
        }
    }

    /// The extended attribute `name` of the node numbered `number`; the root's statistics with the
    /// table's counts (`inodes`, `listings_kept`).
    public func extendedAttribute(_ name: String, of number: UInt64, reply: @escaping Reply<[UInt8]>) {
        do {
            let counts = table.counts
            tree.extendedAttribute(name, of: try node(number), extraStatistics: [
                ("inodes", counts.numbers), ("listings_kept", counts.listings),
            ], reply: reply)
        } catch {
            reply(.failure(error))
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
