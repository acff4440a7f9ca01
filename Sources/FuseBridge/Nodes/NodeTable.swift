import MediaKit
import MediaTree
import Synchronization

/// One entry per inode number the kernel may ask about (as go-fuse keeps one `Inode` per number):
/// its lookup count, where it was named (a listing's entry, or a name looked up in a folder), its
/// node once made, a folder's kept listing and a file's version at its last open, all under one
/// lock.
///
/// A number is what the node's key asks for (`NodeKey.number`), so the same node has the same
/// number in every mount. Where two keys ask for one number, the later goes to the next free one,
/// probed in order as an open-addressing table would (a removed entry inside a run of taken
/// numbers stays as a tombstone, so the entries past it are still found; runs need two keys'
/// numbers to meet, so tombstones are as rare).
///
/// An entry goes when the kernel forgets its last lookup, so the table is as large as what the
/// kernel caches, not as large as every name ever asked for (any time in `thumbs/` is a name).
/// Entries numbered by a listing carry no node (a listing of a library names hundreds of thousands):
/// their node is made from the listing's name when the kernel asks for it (`NumberedTree.node`).
final class NodeTable: Sendable {
    struct Entry {
        var keyHash: UInt64
        var lookups: UInt64 = 0
        /// Made when first needed: looked up, opened, listed as a folder.
        var node: (any TreeNode)?
        var origin: Origin
        /// A folder's listing, given again while its source is unchanged.
        var listing: KeptListing?
        /// A file's source version at its last open (`FileContent.version`).
        var opened: FileIdentity?

        var isTombstone: Bool { if case .tombstone = origin { true } else { false } }
    }

    /// Where the kernel was given a number, so that its node can be made again and a source change
    /// can name it.
    enum Origin {
        case root
        /// The entry at this index of a folder's listing.
        case listed(KeptListing, Int)
        /// The name looked up in the folder numbered `parent`.
        case lookedUp(parent: UInt64, name: Name)
        /// A removed entry that later ones with the same wanted number were placed past.
        case tombstone
    }

    private let entries: Mutex<[UInt64: Entry]>

    init(root: any TreeNode) {
        entries = Mutex([NodeKey.rootNumber: Entry(keyHash: root.key.stableHash, node: root, origin: .root)])
    }

    // MARK: - Numbering

    /// The number of `node`, named `name` in the folder `parent`, with `lookups` more counted (the
    /// kernel is given the number); the entry holds the node from now on.
    func enter(_ node: any TreeNode, as name: Name, in parent: UInt64, lookups: UInt64) -> UInt64 {
        let key = node.key
        if key.number == NodeKey.rootNumber { return count(NodeKey.rootNumber, lookups) }
        return entries.withLock { table in
            let number = Self.place(key.stableHash, in: &table) {
                Entry(keyHash: key.stableHash, origin: .lookedUp(parent: parent, name: name))
            }
            table[number]!.lookups += lookups
            table[number]!.node = node
            return number
        }
    }

    /// The number of the entry at `index` of `listing`, one more lookup counted (readdirplus gives
    /// it); an entry new to the table holds no node.
    func enter(_ listing: KeptListing, index: Int) -> UInt64 {
        let hash = listing.entries[index].keyHash
        return entries.withLock { table in
            let number = Self.place(hash, in: &table) { Entry(keyHash: hash, origin: .listed(listing, index)) }
            table[number]!.lookups += 1
            return number
        }
    }

    /// The number of the entry for `keyHash`, made by `make` where there is none: the first free
    /// number from the one the key asks for, past numbers other keys hold.
    private static func place(_ keyHash: UInt64, in table: inout [UInt64: Entry], make: () -> Entry) -> UInt64 {
        var number = NodeKey.number(forHash: keyHash)
        var free: UInt64?
        while let entry = table[number] {
            if entry.isTombstone {
                free = free ?? number
            } else if entry.keyHash == keyHash {
                return number
            }
            number = next(number)
        }
        let chosen = free ?? number
        table[chosen] = make()
        return chosen
    }

    private static func next(_ number: UInt64) -> UInt64 {
        NodeKey.number(forHash: number &+ 1)
    }

    /// The number the table holds for `key`, if any; never makes one.
    func existingNumber(for key: NodeKey) -> UInt64? {
        entries.withLock { table in
            var number = key.number
            while let entry = table[number] {
                if !entry.isTombstone && entry.keyHash == key.stableHash { return number }
                number = Self.next(number)
            }
            return nil
        }
    }

    private func count(_ number: UInt64, _ lookups: UInt64) -> UInt64 {
        entries.withLock { $0[number]?.lookups += lookups }
        return number
    }

    // MARK: - Forgetting

    /// Takes `count` lookups off `number`; the entry goes when none remain (never the root's).
    func forget(_ number: UInt64, count: UInt64) {
        guard number != NodeKey.rootNumber else { return }
        entries.withLock { table in
            guard let entry = table[number], !entry.isTombstone else { return }
            guard entry.lookups <= count else {
                table[number]!.lookups -= count
                return
            }
            // Where the run of taken numbers goes on, an entry past this one may have wanted this
            // number or an earlier one: it must still be found from there.
            if table[Self.next(number)] != nil {
                table[number] = Entry(keyHash: 0, origin: .tombstone)
            } else {
                table[number] = nil
            }
        }
    }

    // MARK: - What an entry holds

    /// The entry numbered `number` (a copy), or nil.
    func entry(_ number: UInt64) -> Entry? {
        entries.withLock { table in table[number].flatMap { $0.isTombstone ? nil : $0 } }
    }

    /// Keeps `node`, made for the entry numbered `number`, if the entry is still of its key.
    func hold(_ node: any TreeNode, for number: UInt64) {
        entries.withLock { table in
            guard table[number]?.keyHash == node.key.stableHash else { return }
            table[number]!.node = node
        }
    }

    /// Keeps `listing` as the folder's listing.
    func keep(_ listing: KeptListing, for number: UInt64) {
        entries.withLock { $0[number]?.listing = listing }
    }

    /// Records that `number` is opened at `version`; whether its previous open was at the same one.
    func open(_ number: UInt64, at version: FileIdentity) -> Bool {
        entries.withLock { table in
            guard table[number] != nil else { return false }
            defer { table[number]!.opened = version }
            return table[number]!.opened == version
        }
    }

    /// The lookups the kernel holds on `number`.
    func lookups(of number: UInt64) -> UInt64 {
        entries.withLock { $0[number]?.lookups ?? 0 }
    }

    /// Calls `body` with every entry under the lock; `body` may change them (a source change
    /// forgets versions and listings). It must not call back into the table.
    func update(_ body: (inout [UInt64: Entry]) -> Void) {
        entries.withLock { body(&$0) }
    }

    /// How many numbers the table holds, and how many folders' listings it keeps.
    var counts: (numbers: Int, listings: Int) {
        entries.withLock { table in
            table.values.reduce(into: (0, 0)) { counts, entry in
                guard !entry.isTombstone else { return }
                counts.0 += 1
                if entry.listing?.isLasting == true { counts.1 += 1 }
            }
        }
    }
}
