/// What a node stands for, the whole of its identity: its kind, the source path it is made from,
/// the names that pick it out under that path (a thumbnail's name, a track's group and name), and a
/// stamp of the source version where the node's number must change with the version.
///
/// The inode number a node asks for is a hash of its key (`number`), so the same key has the same
/// number in every mount. The kind is part of the identity: a source file that turns from media
/// into a plain file (or back) is another node with another number, so the kernel never sees a
/// node change type.
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
    /// The key's `StableHasher` hash, the same in every process: worked out once, and what the key
    /// hashes as in a dictionary.
    public let stableHash: UInt64

    public init(kind: String, path: SourcePath, names: [Name] = [], stamp: UInt64 = 0) {
        self.kind = kind
        self.path = path
        self.names = names
        self.stamp = stamp
        stableHash = Family(kind: kind, path: path).hash(names: names, stamp: stamp)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(stableHash) }

    /// The hashes first: keys that differ nearly always differ there.
    public static func == (a: NodeKey, b: NodeKey) -> Bool {
        a.stableHash == b.stableHash && a.stamp == b.stamp && a.kind == b.kind && a.path == b.path && a.names == b.names
    }

    /// The inode number of the source root; no other key asks for it.
    public static let rootNumber: UInt64 = 1

    /// The number this key asks for (`number(forHash:)`).
    public var number: UInt64 { Self.number(forHash: stableHash, isRoot: kind == SourceFolder.kind && path.isRoot) }

    /// The inode number a key with `hash` asks for: 63 bits of it (programs that read an inode
    /// number as a signed 64-bit integer see it positive), never 0 nor the root's. Where two keys
    /// ask for one number (for a million nodes, about one chance in 20 million), the one that comes
    /// second gets the next free number from whoever gives numbers out (FuseBridge's node table).
    public static func number(forHash hash: UInt64, isRoot: Bool = false) -> UInt64 {
        if isRoot { return rootNumber }
        let number = hash & ((1 << 63) - 1)
        return number <= rootNumber ? number + 2 : number
    }

    /// The keys of one kind under one path, hashed as far as they share: a listing of many entries
    /// of one folder (dozens of thumbnails, thousands of source files) hashes the kind and the path
    /// once, and each entry's names and stamp from there, with no key made.
    public struct Family: Sendable {
        private let prefix: StableHasher

        public init(kind: String, path: SourcePath) {
            var hasher = StableHasher()
            hasher.add(kind)
            hasher.add(path.bytes)
            hasher.add(CollectionOfOne(0))
            prefix = hasher
        }

        /// The `stableHash` of `NodeKey(kind:path:names:stamp:)` for this family's kind and path.
        public func hash(names: [Name], stamp: UInt64) -> UInt64 {
            var hasher = prefix
            for name in names {
                hasher.add(name.bytes)
                hasher.add(CollectionOfOne(0))
            }
            hasher.add(stamp)
            return hasher.value
        }

        /// The hash of a key with one name.
        public func hash(name: Name, stamp: UInt64) -> UInt64 {
            var hasher = prefix
            hasher.add(name.bytes)
            hasher.add(CollectionOfOne(0))
            hasher.add(stamp)
            return hasher.value
        }
    }
}

/// Where a node is listed: the key of the folder that lists it and its name there. The kernel
/// caches a name in its parent (a dentry) apart from the node it names (an inode), so a change is
/// told to it as both.
public struct Placement: Hashable, Sendable {
    public var parent: NodeKey
    public var name: Name
}
