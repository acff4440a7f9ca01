import Synchronization

/// Gives every node its inode number: a hash of what the node stands for, so a node has the same
/// number every time it is seen, in this mount and the next.
///
/// The table holds the nodes the kernel may ask about by number. FuseBridge calls `remove` once
/// the kernel holds a number no more (its lookups all forgotten), so the table stays as large as
/// what the kernel caches, not as large as every name ever asked for (any time in `thumbs/` is a
/// name). A node seen again after that is numbered again, with the same number. Numbers do not
/// depend on the order in which nodes are seen, except where two nodes' hashes meet (for a million
/// nodes, about one chance in 20 million): the later one then takes the next free number. The
/// root is 1 and stays. Lookup counts are FuseBridge's business; this table only names nodes.
///
/// A node whose content the kernel may read straight from a file (`Node.isPassedThrough`) is
/// numbered per file behind it: when the source file is replaced by another (a rename over it),
/// the name gets a new number. The kernel refuses to open one inode with two backing files at
/// once, so this way an old version still open and the new one are two inodes; the old number
/// still names the node, for the handles open on it.
public final class InodeTable: Sendable {
    public static let rootNumber: UInt64 = 1

    /// Numbers use 63 bits: programs that read an inode number as a signed 64-bit integer see it
    /// positive.
    static let numberMask: UInt64 = (1 << 63) - 1

    /// A node, and for a passed-through one the file behind it (`FileIdentity.file`; else 0).
    private struct Key: Hashable {
        var node: Node
        var file: UInt64

        /// 64-bit FNV-1a of the node's kind, its texts and the file: the same in every process
        /// (unlike `hashValue`, seeded per process).
        var stableHash: UInt64 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            func add(_ text: String) { add(text.utf8); add(CollectionOfOne(0)) }
            let (kind, texts) = node.kindAndTexts
            add(CollectionOfOne(kind))
            texts.forEach(add)
            withUnsafeBytes(of: file.littleEndian) { add($0) }
            return hash
        }
    }

    private struct State {
        var byNode: [Key: UInt64] = [Key(node: .sourceFolder(rel: ""), file: 0): InodeTable.rootNumber]
        var byNumber: [UInt64: Key] = [InodeTable.rootNumber: Key(node: .sourceFolder(rel: ""), file: 0)]
        /// The numbers of the nodes made from each source path, so that a change finds them.
        var byRel: [String: [UInt64]] = ["": [InodeTable.rootNumber]]
    }

    private let state = Mutex(State())

    public init() {}

    /// The number of `node` made from the source file `file` (`FileIdentity.file`, used only for a
    /// passed-through node); the table holds the node from then until `remove`.
    public func number(for node: Node, file: UInt64 = 0) -> UInt64 {
        let key = Key(node: node, file: node.isPassedThrough ? file : 0)
        if let n = state.withLock({ $0.byNode[key] }) { return n }
        // First sight: hashed outside the lock, then numbered unless another thread just did.
        let hash = key.stableHash
        return state.withLock { s in
            if let n = s.byNode[key] { return n }
            var n = hash & Self.numberMask
            while n <= Self.rootNumber || s.byNumber[n] != nil { n = (n &+ 1) & Self.numberMask }
            s.byNode[key] = n
            s.byNumber[n] = key
            s.byRel[node.rel, default: []].append(n)
            return n
        }
    }

    /// The node behind `number`, or nil for a number the table does not hold (never given, or removed).
    public func node(for number: UInt64) -> Node? {
        state.withLock { $0.byNumber[number]?.node }
    }

    /// Whether `number` names a node: `node(for:) != nil`, without copying the node out.
    public func holds(_ number: UInt64) -> Bool {
        state.withLock { $0.byNumber.index(forKey: number) != nil }
    }

    /// Drops the node numbered `number` (never the root): `node(for:)` no longer finds it, until
    /// `number(for:)` numbers it again.
    public func remove(_ number: UInt64) {
        guard number != Self.rootNumber else { return }
        state.withLock { s in
            guard let key = s.byNumber.removeValue(forKey: number) else { return }
            s.byNode[key] = nil
            let rel = key.node.rel
            if var numbers = s.byRel[rel] {
                numbers.removeAll { $0 == number }
                s.byRel[rel] = numbers.isEmpty ? nil : numbers
            }
        }
    }

    /// The number of `node` (a folder, or another node not passed through) if it has one; never
    /// makes one.
    public func existingNumber(for node: Node) -> UInt64? {
        state.withLock { $0.byNode[Key(node: node, file: 0)] }
    }

    /// Every numbered node made from the source path `rel` or, with `subtree`, from anything under it too.
    func numbered(at rel: String, subtree: Bool) -> [(node: Node, number: UInt64)] {
        state.withLock { s in
            let rels = subtree ? s.byRel.keys.filter { RelPath.isWithin($0, rel) } : [rel]
            return rels.flatMap { s.byRel[$0] ?? [] }.map { (s.byNumber[$0]!.node, $0) }
        }
    }

    /// How many numbers name a node (older numbers of replaced files included).
    public var count: Int { state.withLock { $0.byNumber.count } }
}

private extension Node {
    /// What a node stands for, as bytes to hash: one number per kind, and its texts.
    var kindAndTexts: (UInt8, [String]) {
        switch self {
        case .sourceFolder(let rel): (0, [rel])
        case .plainFile(let rel): (1, [rel])
        case .mediaFolder(let rel): (2, [rel])
        case .original(let rel): (3, [rel])
        case .info(let rel): (4, [rel])
        case .cover(let rel): (5, [rel])
        case .chaptersFolder(let rel): (6, [rel])
        case .chapterImage(let rel, let name): (7, [rel, name])
        case .chaptersJSON(let rel): (8, [rel])
        case .chaptersText(let rel): (9, [rel])
        case .thumbsFolder(let rel): (10, [rel])
        case .thumbnail(let rel, let name): (11, [rel, name])
        case .tracksFolder(let rel): (12, [rel])
        case .trackGroup(let rel, let group): (13, [rel, group.rawValue])
        case .track(let rel, let group, let name): (14, [rel, group.rawValue, name])
        }
    }
}
