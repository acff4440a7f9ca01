import Glibc
import MediaTree

/// A folder's listing as given to the kernel, kept by the folder's entry in the node table: served
/// by offset to `readdir`, given again at the next `opendir` while its source is unchanged (a
/// lasting listing: `Listing.source`), and referred to by the entries it numbered, which need
/// nothing else until the kernel asks for one by number (its name is here, its node is made then).
///
/// Kept for every folder the kernel holds (a library's `ls -lR` keeps tens of thousands), so it is
/// compact: the names back to back, each ending in a NUL (readdir hands them to libfuse as they
/// lie), and per entry its key hash, size and one of the few attributes its folder's entries share
/// (in a media folder, all its made files have the same owner, mode and times).
public final class KeptListing: Sendable {
    /// The folder's number and source path; in a folder of the source each entry's source path is
    /// the folder's and the entry's name, in a media folder and below the media file's (`folderPath`).
    let folder: UInt64
    let folderPath: SourcePath
    let listsSourceEntries: Bool
    /// Whether its names are in byte order, as a source folder lists them (found by halving).
    private let sortedByName: Bool
    /// Where the listing holds while the source is as it was; nil for one made anew each time.
    let source: ListingSource?

    /// One entry, in listing order: 24 bytes (its name ends where the next one starts).
    private struct Slot {
        /// The entry's `NodeKey.stableHash`, from which its number and node are found again.
        var keyHash: UInt64
        var size: Int64
        /// Where its name lies in `names` (its NUL after it).
        var nameStart: UInt32
        /// Its other attributes (0 for `firstShared`, else 1 + an index in `moreShared`) in the low
        /// 31 bits; the top bit says it is known by name and type only (a track whose pass is not
        /// remembered).
        var sharedAndFlag: UInt32

        private static var nameAndTypeOnlyBit: UInt32 { 1 << 31 }

        init(keyHash: UInt64, size: Int64, nameStart: Int, shared: Int, nameAndTypeOnly: Bool) {
            precondition(shared < Int(Self.nameAndTypeOnlyBit) && nameStart <= Int(UInt32.max))
            self.keyHash = keyHash
            self.size = size
            self.nameStart = UInt32(nameStart)
            sharedAndFlag = UInt32(shared) | (nameAndTypeOnly ? Self.nameAndTypeOnlyBit : 0)
        }

        var shared: Int { Int(sharedAndFlag & ~Self.nameAndTypeOnlyBit) }
        var nameAndTypeOnly: Bool { sharedAndFlag & Self.nameAndTypeOnlyBit != 0 }
    }

    private let names: [UInt8]
    private let slots: [Slot]
    /// The attributes entries share, with no number and no size: the first, which in most
    /// folders all share, and the others.
    private let firstShared: Attributes?
    private let moreShared: [Attributes]
    /// The lasting listings of subfolders among the entries, made with this one, by entry index
    /// (`Listing.sublistings`): the subfolder's entry finds its listing here when it is opened.
    private let sublistings: [(index: Int, listing: KeptListing)]

    init(folder: UInt64, folderKey: NodeKey, listing: Listing) {
        self.folder = folder
        folderPath = folderKey.path
        let listsSourceEntries = MediaTree.isSourceFolder(folderKey)
        self.listsSourceEntries = listsSourceEntries
        source = listing.isWhole ? listing.source : nil
        var names: [UInt8] = []
        var slots: [Slot] = []
        var shared: [Attributes] = []
        var sharedIndex: [SharedAttributes: UInt32] = [:]
        names.reserveCapacity(listing.entries.reduce(0) { $0 + $1.name.bytes.count + 1 })
        slots.reserveCapacity(listing.entries.count)
        var last: (attributes: SharedAttributes, index: UInt32)?
        // A source folder lists its names in byte order (`SourceFolder.listing`): checked, so that a
        // listing in another order is searched whole.
        var sorted = listsSourceEntries
        for (position, entry) in listing.entries.enumerated() {
            if sorted && position > 0 && !(listing.entries[position - 1].name < entry.name) { sorted = false }
            var attributes = entry.attributes
            attributes.inode = 0
            attributes.size = 0
            let key = SharedAttributes(attributes)
            // Neighbours mostly share theirs: compared before anything is hashed.
            let index = last.flatMap { $0.attributes == key ? $0.index : nil } ?? sharedIndex[key] ?? {
                shared.append(attributes)
                sharedIndex[key] = UInt32(shared.count - 1)
                return UInt32(shared.count - 1)
            }()
            last = (key, index)
            slots.append(Slot(keyHash: entry.keyHash, size: entry.attributes.size, nameStart: names.count,
                              shared: Int(index), nameAndTypeOnly: entry.nameAndTypeOnly))
            names += entry.name.bytes
            names.append(0)
        }
        self.names = names
        self.slots = slots
        sortedByName = sorted
        firstShared = shared.first
        moreShared = Array(shared.dropFirst())
        // Only lasting ones: one with an entry known by name and type only is made again when opened.
        sublistings = listing.sublistings.compactMap { sub in
            let kept = KeptListing(folder: sub.key.number, folderKey: sub.key, listing: sub.listing)
            return kept.isLasting ? (sub.index, kept) : nil
        }
    }

    /// Whether it may be given again while its source is unchanged.
    var isLasting: Bool { source != nil }

    public var count: Int { slots.count }

    /// The key hash of the entry at `index`.
    func keyHash(at index: Int) -> UInt64 { slots[index].keyHash }

    /// Where the name of the entry at `index` lies in `names`, without its NUL.
    private func nameBytes(at index: Int) -> Range<Int> {
        let end = index + 1 < slots.count ? Int(slots[index + 1].nameStart) : names.count
        return Int(slots[index].nameStart)..<(end - 1)
    }

    /// The name of the entry at `index`.
    func name(at index: Int) -> Name {
        Name(bytes: Array(names[nameBytes(at: index)]))
    }

    /// Whether the name at `index` is `name`, compared where it lies.
    func hasName(_ name: Name, at index: Int) -> Bool {
        names[nameBytes(at: index)].elementsEqual(name.bytes)
    }

    /// The index of the entry called `name`, if any: found by halving where the names are in order
    /// (a source folder's thousands), else by comparing each (a media folder's few dozen).
    func index(named name: Name) -> Int? {
        guard sortedByName else { return slots.indices.first { hasName(name, at: $0) } }
        var low = 0
        var high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if names[nameBytes(at: middle)].lexicographicallyPrecedes(name.bytes) { low = middle + 1 } else { high = middle }
        }
        return low < slots.count && hasName(name, at: low) ? low : nil
    }

    /// Whether `path` is the source path the entry at `index` is made from as its name says
    /// (`sourcePath(of:)`), compared where the name lies.
    func hasSourcePath(_ path: SourcePath, at index: Int) -> Bool {
        guard listsSourceEntries else { return path == folderPath }
        let name = names[nameBytes(at: index)]
        guard !folderPath.isRoot else { return path.bytes.elementsEqual(name) }
        let folder = folderPath.bytes.count
        return path.bytes.count == folder + 1 + name.count && path.bytes.starts(with: folderPath.bytes)
            && path.bytes[folder] == 0x2F && path.bytes[(folder + 1)...].elementsEqual(name)
    }

    /// Calls `body` with the name at `index` as the NUL-terminated C string it is stored as.
    func withCName<Result>(at index: Int, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try names.withUnsafeBufferPointer { buffer in
            try buffer.baseAddress!.advanced(by: Int(slots[index].nameStart)).withMemoryRebound(to: CChar.self, capacity: 1, body)
        }
    }

    /// The attributes of the entry at `index`, numbered `number`.
    func attributes(at index: Int, number: UInt64) -> Attributes {
        let slot = slots[index]
        var attributes = slot.shared == 0 ? firstShared! : moreShared[slot.shared - 1]
        attributes.inode = number
        attributes.size = slot.size
        return attributes
    }

    /// The number the entry at `index` asks for (the table may give another: `NodeTable.enter`).
    func wantedNumber(at index: Int) -> UInt64 { NodeKey.number(forHash: slots[index].keyHash) }

    /// Whether the entry at `index` is known by name and type only (`DirectoryEntry.nameAndTypeOnly`).
    func isNameAndTypeOnly(at index: Int) -> Bool { slots[index].nameAndTypeOnly }

    /// The entries as the tree listed them (each with the number its key asks for).
    public var entries: [DirectoryEntry] {
        slots.indices.map { index in
            DirectoryEntry(name: name(at: index), attributes: attributes(at: index, number: wantedNumber(at: index)),
                           keyHash: slots[index].keyHash, nameAndTypeOnly: slots[index].nameAndTypeOnly)
        }
    }

    /// The listing of the folder at `index`, made with this one, for the folder numbered `number`
    /// (nil where the table gave that folder another number than its key asks for).
    func sublisting(at index: Int, number: UInt64) -> KeptListing? {
        sublistings.first { $0.index == index && $0.listing.folder == number }?.listing
    }

    /// The source path the entry at `index` is made from.
    func sourcePath(of index: Int) -> SourcePath {
        listsSourceEntries ? folderPath.appending(name(at: index)) : folderPath
    }
}

/// Attributes compared in every field (`Attributes ==` leaves the access and change times out).
private struct SharedAttributes: Hashable {
    let attributes: Attributes

    init(_ attributes: Attributes) { self.attributes = attributes }

    static func == (a: SharedAttributes, b: SharedAttributes) -> Bool {
        let (x, y) = (a.attributes, b.attributes)
        return x == y && x.accessTime.tv_sec == y.accessTime.tv_sec && x.accessTime.tv_nsec == y.accessTime.tv_nsec
            && x.changeTime.tv_sec == y.changeTime.tv_sec && x.changeTime.tv_nsec == y.changeTime.tv_nsec
    }

    func hash(into hasher: inout Hasher) {
        let x = attributes
        hasher.combine(x.type == .directory)
        hasher.combine(x.permissions)
        hasher.combine(x.uid)
        hasher.combine(x.gid)
        hasher.combine(x.modificationTime.tv_sec)
        hasher.combine(x.modificationTime.tv_nsec)
        hasher.combine(x.changeTime.tv_sec)
    }
}
