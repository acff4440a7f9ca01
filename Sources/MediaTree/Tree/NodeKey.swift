/// What a node stands for, the whole of its identity: its kind, the source path it is made from,
/// the names that pick it out under that path (a thumbnail's name, a track's group and name), and a
/// stamp of the source version where the node's number must change with the version.
///
/// The inode number is a hash of the key (`InodeTable`), so the same key has the same number in
/// every mount. The kind is part of the identity: a source file that turns from media into a plain
/// file (or back) is another node with another number, so the kernel never sees a node change type.
public struct NodeKey: Hashable, Sendable {
    /// The kind of node: a short fixed name per type (`"thumbnail"`, `"track"`, …), hashed into the
    /// number, so it must never change for a kind that exists.
    public let kind: String
    public let path: SourcePath
    public let names: [Name]
    /// 0, or what the node's number depends on besides its path: the source file behind a node read
    /// through (a file replaced by another gets a new number, as on a disk), or the version of the
    /// source a made file was made from (see `MadeFile`).
    public let stamp: UInt64
    /// 64-bit FNV-1a of the key: the same in every process (unlike `hashValue`, seeded per process).
    /// Worked out once: it is also what the key hashes as in a dictionary, so the inode table's
    /// tables of 400,000 keys hash one word per key, and growing them rehashes no bytes (hashing
    /// every path and name was a tenth of the daemon's first `ls -lR` after a remount).
    let stableHash: UInt64

    public init(kind: String, path: SourcePath, names: [Name] = [], stamp: UInt64 = 0) {
        self.kind = kind
        self.path = path
        self.names = names
        self.stamp = stamp
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        add(kind.utf8)
        add(CollectionOfOne(0))
        add(path.bytes)
        add(CollectionOfOne(0))
        for name in names {
            add(name.bytes)
            add(CollectionOfOne(0))
        }
        withUnsafeBytes(of: stamp.littleEndian) { add($0) }
        stableHash = hash
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(stableHash) }

    /// The hashes first: keys that differ nearly always differ there.
    public static func == (a: NodeKey, b: NodeKey) -> Bool {
        a.stableHash == b.stableHash && a.stamp == b.stamp && a.kind == b.kind && a.path == b.path && a.names == b.names
    }
}

/// Where a node is listed: the key of the folder that lists it and its name there. The kernel
/// caches a name in its parent (a dentry) apart from the node it names (an inode), so a change is
/// told to it as both.
public struct Placement: Hashable, Sendable {
    public var parent: NodeKey
    public var name: Name
}
