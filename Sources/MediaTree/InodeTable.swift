import MediaKit
import Synchronization

/// Gives every node a stable inode number for the life of the mount.
///
/// Numbers are never reused while mounted: a node seen again gets the number it had. The root is 1.
/// Lookup counts and forget are FuseBridge's business; this table only names nodes.
///
/// A node whose content the kernel may read straight from a file (`Node.isPassedThrough`) is
/// numbered per file behind it: when the source file is replaced by another (a rename over it),
/// the name gets a new number. The kernel refuses to open one inode with two backing files at
/// once, so this way an old version still open and the new one are two inodes; the old number
/// still names the node, for the handles open on it.
public final class InodeTable: Sendable {
    public static let rootNumber: UInt64 = 1

    /// A node, and for a passed-through one the file behind it (`FileIdentity.file`; else 0).
    private struct Key: Hashable {
        var node: Node
        var file: UInt64
    }

    private struct State {
        var byNode: [Key: UInt64] = [Key(node: .sourceFolder(rel: ""), file: 0): InodeTable.rootNumber]
        var byNumber: [UInt64: Node] = [InodeTable.rootNumber: .sourceFolder(rel: "")]
        /// The numbers of the nodes made from each source path, so that a change finds them.
        var byRel: [String: [UInt64]] = ["": [InodeTable.rootNumber]]
        var next: UInt64 = InodeTable.rootNumber + 1
    }

    private let state = Mutex(State())

    public init() {}

    /// The number of `node` made from the source file `file` (`FileIdentity.file`, used only for a
    /// passed-through node), made on first sight.
    public func number(for node: Node, file: UInt64 = 0) -> UInt64 {
        let key = Key(node: node, file: node.isPassedThrough ? file : 0)
        return state.withLock { s in
            if let n = s.byNode[key] { return n }
            let n = s.next
            s.next += 1
            s.byNode[key] = n
            s.byNumber[n] = node
            s.byRel[node.rel, default: []].append(n)
            return n
        }
    }

    /// The node behind `number`, or nil for a number this table never gave.
    public func node(for number: UInt64) -> Node? {
        state.withLock { $0.byNumber[number] }
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
            return rels.flatMap { s.byRel[$0] ?? [] }.map { (s.byNumber[$0]!, $0) }
        }
    }

    /// How many nodes have numbers.
    public var count: Int { state.withLock { $0.byNode.count } }
}
