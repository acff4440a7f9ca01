import Synchronization

/// Gives every node its inode number, a hash of its `NodeKey`, so a node has the same number every
/// time it is seen, in this mount and the next; and holds the nodes the kernel may ask about by
/// number, as they were last resolved.
///
/// FuseBridge calls `remove` once the kernel holds a number no more (its lookups all forgotten),
/// so the table stays as large as what the kernel caches, not as large as every name ever asked
/// for (any time in `thumbs/` is a name). A node seen again after that is numbered again, with the
/// same number. Numbers do not depend on the order in which nodes are seen, except where two keys'
/// hashes meet (for a million nodes, about one chance in 20 million): the later one then takes the
/// next free number. The root is 1 and stays. Lookup counts are FuseBridge's business.
public final class InodeTable: Sendable {
    public static let rootNumber: UInt64 = 1

    /// Numbers use 63 bits: programs that read an inode number as a signed 64-bit integer see it
    /// positive.
    static let numberMask: UInt64 = (1 << 63) - 1

    private struct State {
        var byKey: [NodeKey: UInt64] = [:]
        var byNumber: [UInt64: any TreeNode] = [:]
        /// The numbers of the nodes made from each source path, so that a change finds them.
        var byPath: [SourcePath: [UInt64]] = [:]
    }

    private let state: Mutex<State>
    private let removed = Atomic<UInt64>(0)

    init(root: any TreeNode) {
        var initial = State()
        initial.byKey[root.key] = Self.rootNumber
        initial.byNumber[Self.rootNumber] = root
        initial.byPath[root.key.path] = [Self.rootNumber]
        state = Mutex(initial)
    }

    /// The number of `node`; the table holds it (this object, replacing an older one of the same
    /// key) from then until `remove`.
    @discardableResult
    public func number(for node: any TreeNode) -> UInt64 {
        let key = node.key
        if let n = state.withLock({ s -> UInt64? in
            guard let n = s.byKey[key] else { return nil }
            s.byNumber[n] = node
            return n
        }) { return n }
        // First sight: hashed outside the lock, then numbered unless another thread just did.
        let hash = key.stableHash
        return state.withLock { s in
            if let n = s.byKey[key] {
                s.byNumber[n] = node
                return n
            }
            var n = hash & Self.numberMask
            while n <= Self.rootNumber || s.byNumber[n] != nil { n = (n &+ 1) & Self.numberMask }
            s.byKey[key] = n
            s.byNumber[n] = node
            s.byPath[key.path, default: []].append(n)
            return n
        }
    }

    /// The node behind `number` as last resolved, or nil for a number the table does not hold.
    public func node(for number: UInt64) -> (any TreeNode)? {
        state.withLock { $0.byNumber[number] }
    }

    /// Whether `number` names a node.
    public func holds(_ number: UInt64) -> Bool {
        state.withLock { $0.byNumber.index(forKey: number) != nil }
    }

    /// Drops the node numbered `number` (never the root).
    public func remove(_ number: UInt64) {
        guard number != Self.rootNumber else { return }
        state.withLock { s in
            guard let node = s.byNumber.removeValue(forKey: number) else { return }
            removed.add(1, ordering: .sequentiallyConsistent)
            let key = node.key
            s.byKey[key] = nil
            if var numbers = s.byPath[key.path] {
                numbers.removeAll { $0 == number }
                s.byPath[key.path] = numbers.isEmpty ? nil : numbers
            }
        }
    }

    /// How many numbers were dropped since the mount: while it stays the same, every number given
    /// still names the node it was given for (`KeptListings`).
    var removals: UInt64 { removed.load(ordering: .sequentiallyConsistent) }

    /// The number of the node with `key`, if the table holds one; never makes one.
    public func existingNumber(for key: NodeKey) -> UInt64? {
        state.withLock { $0.byKey[key] }
    }

    /// Every numbered node made from the source path `path` or, with `subtree`, from anything under it.
    func numbered(at path: SourcePath, subtree: Bool) -> [(node: any TreeNode, number: UInt64)] {
        state.withLock { s in
            let paths = subtree ? s.byPath.keys.filter { $0.isWithin(path) } : [path]
            return paths.flatMap { s.byPath[$0] ?? [] }.map { (s.byNumber[$0]!, $0) }
        }
    }

    /// How many numbers name a node (older numbers of replaced files included).
    public var count: Int { state.withLock { $0.byNumber.count } }
}
