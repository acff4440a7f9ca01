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
/// numbers to meet, so tombstones are as rare). Numbering and forgetting: NodeTable+Numbering.
///
/// An entry goes when the kernel forgets its last lookup, so the table is as large as what the
/// kernel caches, not as large as every name ever asked for (any time in `thumbs/` is a name).
/// Entries numbered by a listing carry no node (a listing of a library names hundreds of thousands):
/// their node is made from the listing's name when the kernel asks for it (`NumberedTree.node`).
///
/// A folder's children are found from its entry, as go-fuse's `Inode` keeps its children, so that
/// a source change looks at the entries it makes stale and no others (NodeTable+Changes): most
/// through the folder's listings, which hold their key hashes; the few no listing of the folder
/// gives, in `Children` (NodeTable+Children).
final class NodeTable: Sendable {
    /// Kept small, as there is one per entry the kernel holds (a library's `ls -lR` gives it hundreds
    /// of thousands): 16 bytes, where it was named being one reference; the few entries that hold
    /// more (a node, a folder's listing, a file's last opened version) hold it in that reference's
    /// place, with where they were named. Its key's hash is not stored: the number is that hash but
    /// for its top bit, kept here (`KeyHashRest`), or the hash is where the entry was named.
    /// Only NodeTable's own files change one.
    struct Entry {
        var named: Named
        var lookups: UInt32 = 0
        /// The entry's index in the listing that named it, and below it `KeyHashRest`.
        private let indexAndRest: UInt32

        /// The entry of the key `keyHash`, numbered `number`, named as `named` says (at `index` of
        /// a listing).
        init(keyHash: UInt64, number: UInt64, named: Named, index: Int = 0) {
            precondition(index >= 0 && index <= KeyHashRest.largestIndex, "a listing of over a billion entries")
            self.named = named
            indexAndRest = UInt32(index) << KeyHashRest.bits | KeyHashRest(keyHash, number: number).rawValue
        }

        /// An empty slot, or a number forgotten inside a run of taken ones (NodeTable+Numbering).
        static var tombstone: Entry { Entry(keyHash: 0, number: 0, named: .tombstone) }

        /// The entry's index in the listing that named it.
        var index: Int { Int(indexAndRest >> KeyHashRest.bits) }

        /// The `NodeKey.stableHash` of the entry's key, given its number `number`.
        func keyHash(at number: UInt64) -> UInt64 {
            KeyHashRest(rawValue: indexAndRest & KeyHashRest.mask).keyHash(number: number) ?? keyHashWhereNamed
        }

        /// Where the kernel was given the number.
        var origin: Origin {
            switch named.unheld {
            case .root: .root
            case .listed(let listing): .listed(listing, index)
            case .lookedUp(let name): .lookedUp(parent: name.parent, name: name.name, path: name.path)
            case .tombstone, .holding: .tombstone
            }
        }

        /// The number of the folder it was named in; nil for the root and a tombstone.
        var parent: UInt64? {
            switch named.unheld {
            case .listed(let listing): listing.folder
            case .lookedUp(let name): name.parent
            case .root, .tombstone, .holding: nil
            }
        }

        /// The source folder it was named in, where it was named in one (listed in its listing, or
        /// looked up there): the folder's node is then made from this path alone.
        var sourceFolder: SourcePath? {
            switch named.unheld {
            case .listed(let listing): listing.listsSourceEntries ? listing.folderPath : nil
            case .lookedUp(let name): name.inSourceFolder ? name.path.parent : nil
            case .root, .tombstone, .holding: nil
            }
        }

        /// Made when first needed: looked up, opened, listed as a folder.
        var node: (any TreeNode)? { named.held?.node }
        /// A folder's listing, given again while its source is unchanged.
        var listing: KeptListing? { named.held?.listing }
        /// A file's source version at its last open (`FileContent.version`).
        var opened: FileIdentity? { named.held?.opened }

        var isTombstone: Bool { if case .tombstone = named { true } else { false } }

        mutating func hold(node: (any TreeNode)?? = nil, listing: KeptListing?? = nil, opened: FileIdentity?? = nil) {
            let held = Held(named: named.unheld, node: node ?? self.node, listing: listing ?? self.listing,
                            opened: opened ?? self.opened)
            named = held.holdsAnything ? .holding(held) : held.named
        }

        /// `lookups` more (kept at the largest count, which no kernel reaches).
        mutating func count(_ more: UInt64) {
            lookups = UInt32(min(UInt64(UInt32.max), UInt64(lookups) + more))
        }

        /// Forgets the version last opened and the listing kept (a source change); the listing it
        /// kept, which entries may still be numbered by (`Children.listings`).
        mutating func forgetState() -> KeptListing? {
            guard named.held != nil else { return nil }
            let listing = self.listing
            hold(listing: .some(nil), opened: .some(nil))
            return listing
        }
    }

    /// `Origin` as an entry stores it, and what it holds: one reference.
    enum Named {
        case root, tombstone
        case listed(KeptListing)
        case lookedUp(LookedUpName)
        /// Where it was named (never `.holding`) and what it holds.
        case holding(Held)

        var held: Held? { if case .holding(let held) = self { held } else { nil } }
        var unheld: Named { held?.named ?? self }
    }

    /// A name looked up that no listing of its folder held (NodeTable+Numbering).
    final class LookedUpName: Sendable {
        let parent: UInt64
        let name: Name
        /// The source path of its node.
        let path: SourcePath
        /// Whether it was looked up in a folder of the source (its node's source path is then in
        /// that folder: the folder's own entry, or a server layout's entry beside a film there).
        let inSourceFolder: Bool
        /// Its node's `NodeKey.stableHash`.
        let keyHash: UInt64

        init(parent: UInt64, name: Name, path: SourcePath, inSourceFolder: Bool, keyHash: UInt64) {
            self.parent = parent
            self.name = name
            self.path = path
            self.inSourceFolder = inSourceFolder
            self.keyHash = keyHash
        }
    }

    /// Where an entry was named and what it holds beyond that, replaced whole when it changes.
    final class Held: Sendable {
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

    /// The entries by number, and what their origins do not say of folders' children.
    struct State: ~Copyable {
        var slots: NumberSlots<Entry>
        var children = ChildIndex()
    }

    /// Only NodeTable's own files take the lock.
    let state: Mutex<State>
    /// How many times the table was walked to count it (`counts`).
    let walks = Atomic(0)

    init(root: any TreeNode) {
        var slots = NumberSlots(vacant: Entry.tombstone)
        var entry = Entry(keyHash: root.key.stableHash, number: NodeKey.rootNumber, named: .root)
        entry.hold(node: root)
        slots.set(NodeKey.rootNumber, to: entry)
        state = Mutex(State(slots: slots))
    }

    // MARK: - What an entry holds

    /// The entry numbered `number` (a copy), or nil.
    func entry(_ number: UInt64) -> Entry? {
        state.withLock { $0.slots[number].flatMap { $0.isTombstone ? nil : $0 } }
    }

    /// Keeps `node`, made for the entry numbered `number`, if the entry is still of its key.
    func hold(_ node: any TreeNode, for number: UInt64) {
        state.withLock { state in
            let held = state.slots.modify(number) { entry -> Bool in
                guard entry.keyHash(at: number) == node.key.stableHash else { return false }
                entry.hold(node: node)
                return true
            }
            if held == true { state.noteHeld(number, madeFrom: node.key.path) }
        }
    }

    /// Keeps `listing` as the folder's listing; the one it replaces may still number entries.
    func keep(_ listing: KeptListing, for number: UInt64) {
        state.withLock { state in
            let replaced = state.slots.modify(number) { entry -> KeptListing? in
                let kept = entry.listing
                entry.hold(listing: listing)
                return kept
            }
            if let replaced = replaced ?? nil, replaced !== listing { state.children.add(replaced, of: number) }
            state.noteHeld(number, madeFrom: listing.folderPath)
        }
    }

    /// Records that `number` is opened at `version`; whether its previous open was at the same one.
    func open(_ number: UInt64, at version: FileIdentity) -> Bool {
        state.withLock { state in
            state.slots.modify(number) { entry in
                if entry.opened == version { return true }
                entry.hold(opened: version)
                return false
            } ?? false
        }
    }

    /// The lookups the kernel holds on `number`.
    func lookups(of number: UInt64) -> UInt64 {
        state.withLock { UInt64($0.slots[number]?.lookups ?? 0) }
    }

    /// Calls `body` with every number and entry under the lock (counting them). It must not call
    /// back into the table.
    func forEach(_ body: (UInt64, Entry) -> Void) {
        state.withLock { $0.slots.updateEach { number, entry in body(number, entry) } }
    }
}
