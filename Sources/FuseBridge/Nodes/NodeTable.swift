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
    /// Kept small, as there is one per entry the kernel holds (a library's `ls -lR` gives it hundreds
    /// of thousands): 24 bytes, where it was named being one reference; the few entries that hold
    /// more (a node, a folder's listing, a file's last opened version) hold it in that reference's
    /// place, with where they were named.
    struct Entry {
        let keyHash: UInt64
        fileprivate var named: Named
        fileprivate(set) var lookups: UInt32 = 0
        /// The entry's index in the listing that named it.
        fileprivate var index: UInt32 = 0

        fileprivate init(keyHash: UInt64, named: Named, index: Int = 0) {
            self.keyHash = keyHash
            self.named = named
            self.index = UInt32(index)
        }

        /// Where the kernel was given the number.
        var origin: Origin {
            switch named.unheld {
            case .root: .root
            case .listed(let listing): .listed(listing, Int(index))
            case .lookedUp(let name): .lookedUp(parent: name.parent, name: name.name, path: name.path)
            case .tombstone, .holding: .tombstone
            }
        }

        /// Made when first needed: looked up, opened, listed as a folder.
        var node: (any TreeNode)? { named.held?.node }
        /// A folder's listing, given again while its source is unchanged.
        var listing: KeptListing? { named.held?.listing }
        /// A file's source version at its last open (`FileContent.version`).
        var opened: FileIdentity? { named.held?.opened }

        var isTombstone: Bool { if case .tombstone = named { true } else { false } }

        fileprivate mutating func hold(node: (any TreeNode)?? = nil, listing: KeptListing?? = nil,
                                       opened: FileIdentity?? = nil) {
            let held = Held(named: named.unheld, node: node ?? self.node, listing: listing ?? self.listing,
                            opened: opened ?? self.opened)
            named = held.holdsAnything ? .holding(held) : held.named
        }
    }

    /// `Origin` as an entry stores it, and what it holds: one reference.
    fileprivate enum Named {
        case root, tombstone
        case listed(KeptListing)
        case lookedUp(LookedUpName)
        /// Where it was named (never `.holding`) and what it holds.
        case holding(Held)

        var held: Held? { if case .holding(let held) = self { held } else { nil } }
        var unheld: Named { held?.named ?? self }
    }

    fileprivate final class LookedUpName: Sendable {
        let parent: UInt64
        let name: Name
        let path: SourcePath
        init(parent: UInt64, name: Name, path: SourcePath) {
            self.parent = parent
            self.name = name
            self.path = path
        }
    }

    /// Where an entry was named and what it holds beyond that, replaced whole when it changes.
    fileprivate final class Held: Sendable {
        let named: Named
        let node: (any TreeNode)?
        let listing: KeptListing?
        let opened: FileIdentity?
        init(named: Named, node: (any TreeNode)?, listing: KeptListing?, opened: FileIdentity?) {
            self.named = named
            self.node = node
            self.listing = listing
            self.opened = opened
        }

        var holdsAnything: Bool { node != nil || listing != nil || opened != nil }
    }

    private let entries: Mutex<NumberSlots<Entry>>
    /// How many times the table was walked to count it (`counts`).
    let walks = Atomic(0)

    init(root: any TreeNode) {
        var entries = NumberSlots(vacant: Entry(keyHash: 0, named: .tombstone))
        var entry = Entry(keyHash: root.key.stableHash, named: .root)
        entry.hold(node: root)
        entries.set(NodeKey.rootNumber, to: entry)
        self.entries = Mutex(entries)
    }

    // MARK: - Numbering

    /// The number of `node`, named `name` in the folder `parent`, with `lookups` more counted (the
    /// kernel is given the number). The entry holds the name, not the node (`NumberedTree.node`
    /// makes it again).
    func enter(_ node: any TreeNode, as name: Name, in parent: UInt64, lookups: UInt64) -> UInt64 {
        let key = node.key
        if key.number == NodeKey.rootNumber { return count(NodeKey.rootNumber, lookups) }
        return entries.withLock { table in
            let number = Self.place(key.stableHash, in: &table) {
                Entry(keyHash: key.stableHash, named: .lookedUp(LookedUpName(parent: parent, name: name, path: key.path)))
            }
            table.modify(number) { $0.count(lookups) }
            return number
        }
    }

    /// The numbers of the entries at `positions` of `listing`, one more lookup counted for each
    /// (a readdirplus reply gives them), written to `numbers` in order; an entry known by name and
    /// type only is not counted and gets 0. An entry new to the table holds no node. One reply's
    /// entries are entered under one lock, and the slots they ask for are fetched into the cache
    /// together first: a library's table is read at random, and one trip to memory per entry, one
    /// after another, was the largest single cost of the daemon's own code in a listing given
    /// again (the kernel's side of each request costs more).
    func enter(_ listing: KeptListing, positions: Range<Int>, into numbers: UnsafeMutableBufferPointer<UInt64>) {
        precondition(numbers.count >= positions.count)
        entries.withLock { table in
            for position in positions where !listing.isNameAndTypeOnly(at: position) {
                table.prefetch(listing.wantedNumber(at: position))
            }
            for position in positions {
                numbers[position - positions.lowerBound] = listing.isNameAndTypeOnly(at: position)
                    ? 0 : Self.enter(listing, index: position, in: &table)
            }
        }
    }

    /// The number of the entry at `index` of `listing`, one more lookup counted (whatever it is
    /// known by): an entry new to the table holds no node.
    func enter(_ listing: KeptListing, index: Int) -> UInt64 {
        entries.withLock { Self.enter(listing, index: index, in: &$0) }
    }

    private static func enter(_ listing: KeptListing, index: Int, in table: inout NumberSlots<Entry>) -> UInt64 {
        let hash = listing.keyHash(at: index)
        // A listing given again names entries the table holds at the numbers they ask for:
        // counted where they lie, the entry not copied out (its reference retained) and back.
        let wanted = NodeKey.number(forHash: hash)
        let counted = table.modify(wanted) { entry -> Bool in
            guard entry.keyHash == hash, !entry.isTombstone else { return false }
            entry.count(1)
            return true
        }
        if counted == true { return wanted }
        let number = place(hash, in: &table) { Entry(keyHash: hash, named: .listed(listing), index: index) }
        table.modify(number) { $0.count(1) }
        return number
    }

    /// The number of the entry for `keyHash`, made by `make` where there is none: the first free
    /// number from the one the key asks for, past numbers other keys hold.
    private static func place(_ keyHash: UInt64, in table: inout NumberSlots<Entry>, make: () -> Entry) -> UInt64 {
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
        table.set(chosen, to: make())
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
        entries.withLock { _ = $0.modify(number) { $0.count(lookups) } }
        return number
    }

    // MARK: - Forgetting

    /// Takes `count` lookups off `number`; the entry goes when none remain (never the root's).
    func forget(_ number: UInt64, count: UInt64) {
        guard number != NodeKey.rootNumber else { return }
        entries.withLock { table in
            guard let entry = table[number], !entry.isTombstone else { return }
            guard UInt64(entry.lookups) <= count else {
                table.modify(number) { $0.lookups -= UInt32(count) }
                return
            }
            // Where the run of taken numbers goes on, an entry past this one may have wanted this
            // number or an earlier one: it must still be found from there.
            table.set(number, to: table[Self.next(number)] != nil ? Entry(keyHash: 0, named: .tombstone) : nil)
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
            table.modify(number) { entry in
                if entry.keyHash == node.key.stableHash { entry.hold(node: node) }
            }
        }
    }

    /// Keeps `listing` as the folder's listing.
    func keep(_ listing: KeptListing, for number: UInt64) {
        entries.withLock { _ = $0.modify(number) { $0.hold(listing: listing) } }
    }

    /// Records that `number` is opened at `version`; whether its previous open was at the same one.
    func open(_ number: UInt64, at version: FileIdentity) -> Bool {
        entries.withLock { table in
            table.modify(number) { entry in
                if entry.opened == version { return true }
                entry.hold(opened: version)
                return false
            } ?? false
        }
    }

    /// The lookups the kernel holds on `number`.
    func lookups(of number: UInt64) -> UInt64 {
        entries.withLock { UInt64($0[number]?.lookups ?? 0) }
    }

    /// Calls `body` with every number and entry under the lock; `body` may change the entry (a
    /// source change forgets versions and listings). It must not call back into the table.
    func updateEach(_ body: (UInt64, inout Entry) -> Void) {
        entries.withLock { $0.updateEach(body) }
    }
}

extension NodeTable.Entry {
    /// `lookups` more (kept at the largest count, which no kernel reaches).
    fileprivate mutating func count(_ more: UInt64) {
        lookups = UInt32(min(UInt64(UInt32.max), UInt64(lookups) + more))
    }

    /// Forgets the version last opened and the listing kept (a source change).
    mutating func forgetState() {
        guard named.held != nil else { return }
        hold(listing: .some(nil), opened: .some(nil))
    }
}
