import Synchronization

/// Gives every node a stable inode number for the life of the mount.
///
/// Numbers are never reused while mounted: a node seen again gets the number it had. The root is 1.
/// Lookup counts and forget are FuseBridge's business; this table only names nodes.
public final class InodeTable: Sendable {
    public static let rootNumber: UInt64 = 1

    private struct State {
        var byNode: [Node: UInt64] = [.sourceFolder(rel: ""): InodeTable.rootNumber]
        var byNumber: [UInt64: Node] = [InodeTable.rootNumber: .sourceFolder(rel: "")]
        var next: UInt64 = InodeTable.rootNumber + 1
    }

    private let state = Mutex(State())

    public init() {}

    /// The number of `node`, made on first sight.
    public func number(for node: Node) -> UInt64 {
        state.withLock { s in
            if let n = s.byNode[node] { return n }
            let n = s.next
            s.next += 1
            s.byNode[node] = n
            s.byNumber[n] = node
            return n
        }
    }

    /// The node behind `number`, or nil for a number this table never gave.
    public func node(for number: UInt64) -> Node? {
        state.withLock { $0.byNumber[number] }
    }

    /// How many nodes have numbers.
    public var count: Int { state.withLock { $0.byNode.count } }
}
