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
    /// folders all share (held in the listing itself), and the others.
    private let firstShared: SharedAttributes
    private let moreShared: [SharedAttributes]
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
        var shared: [SharedAttributes] = []
        var sharedIndex: [SharedAttributes: UInt32] = [:]
        names.reserveCapacity(listing.entries.reduce(0) { $0 + $1.name.bytes.count + 1 })
        slots.reserveCapacity(listing.entries.count)
        var last: (attributes: SharedAttributes, index: UInt32)?
        // A source folder lists its names in byte order (`SourceFolder.listing`): checked, so that a
        // listing in another order is searched whole.
        var sorted = listsSourceEntries
        for (position, entry) in listing.entries.enumerated() {
            if sorted && position > 0 && !(listing.entries[position - 1].name < entry.name) { sorted = false }
            let key = SharedAttributes(entry.attributes)
            // Neighbours mostly share theirs: compared before anything is hashed.
            let index = last.flatMap { $0.attributes == key ? $0.index : nil } ?? sharedIndex[key] ?? {
                shared.append(key)
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
        firstShared = shared.first ?? .none
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
        return (slot.shared == 0 ? firstShared : moreShared[slot.shared - 1]).attributes(inode: number, size: slot.size)
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

/// `Attributes` but the number and size (each entry's own), compared in every field (`Attributes ==`
/// leaves the access and change times out): 56 bytes where `Attributes` takes 88, as a listing
/// holds one in itself and a library's `ls -lR` keeps tens of thousands of listings.
private struct SharedAttributes: Hashable {
    /// The permission bits, and the top bit for a folder.
    private let modeAndType: UInt32
    private let links: UInt32
    private let uid: UInt32
    private let gid: UInt32
    private let seconds: (access: Int64, modification: Int64, change: Int64)
    private let nanoseconds: (access: Int32, modification: Int32, change: Int32)

    private static var folderBit: UInt32 { 1 << 31 }

    /// What a listing with no entries holds.
    static let none = SharedAttributes(modeAndType: 0, links: 0, uid: 0, gid: 0, seconds: (0, 0, 0), nanoseconds: (0, 0, 0))

    private init(modeAndType: UInt32, links: UInt32, uid: UInt32, gid: UInt32,
                 seconds: (Int64, Int64, Int64), nanoseconds: (Int32, Int32, Int32)) {
        (self.modeAndType, self.links, self.uid, self.gid) = (modeAndType, links, uid, gid)
        (self.seconds, self.nanoseconds) = (seconds, nanoseconds)
    }

    init(_ attributes: Attributes) {
        precondition(attributes.permissions & Self.folderBit == 0, "permission bits only")
        let times = [attributes.accessTime, attributes.modificationTime, attributes.changeTime]
        self.init(modeAndType: attributes.permissions | (attributes.type == .directory ? Self.folderBit : 0),
                  links: attributes.links, uid: attributes.uid, gid: attributes.gid,
                  seconds: (Int64(times[0].tv_sec), Int64(times[1].tv_sec), Int64(times[2].tv_sec)),
                  nanoseconds: (Int32(times[0].tv_nsec), Int32(times[1].tv_nsec), Int32(times[2].tv_nsec)))
    }

    /// The whole attributes of an entry numbered `inode` of `size` bytes.
    func attributes(inode: UInt64, size: Int64) -> Attributes {
        func time(_ seconds: Int64, _ nanoseconds: Int32) -> timespec { timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)) }
        return Attributes(inode: inode, type: modeAndType & Self.folderBit != 0 ? .directory : .regular,
                          permissions: modeAndType & ~Self.folderBit, size: size, links: links, uid: uid, gid: gid,
                          accessTime: time(seconds.access, nanoseconds.access),
                          modificationTime: time(seconds.modification, nanoseconds.modification),
                          changeTime: time(seconds.change, nanoseconds.change))
    }

    static func == (a: SharedAttributes, b: SharedAttributes) -> Bool {
        a.modeAndType == b.modeAndType && a.links == b.links && a.uid == b.uid && a.gid == b.gid
            && a.seconds == b.seconds && a.nanoseconds == b.nanoseconds
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(modeAndType)
        hasher.combine(uid)
        hasher.combine(gid)
        hasher.combine(seconds.modification)
        hasher.combine(nanoseconds.modification)
        hasher.combine(seconds.change)
    }
}
