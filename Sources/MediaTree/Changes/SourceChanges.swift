/// What changed in the source over a moment: the paths (relative to the source root) of entries
/// created, removed, renamed (both names), written or whose attributes changed; or everything, when
/// the record of changes was lost (the kernel's event queue overflowed).
public struct SourceChanges: Sendable, Equatable {
    public var paths: Set<SourcePath>
    public var everything: Bool

    public init(paths: Set<SourcePath> = [], everything: Bool = false) {
        self.paths = paths
        self.everything = everything
    }

    public var isEmpty: Bool { paths.isEmpty && !everything }
}

/// Something the kernel may hold that a source change made stale.
public enum Invalidation: Hashable, Sendable {
    /// The name `name` in the folder numbered `parent`: the kernel must look it up again.
    case entry(parent: UInt64, name: Name)
    /// The node numbered `inode`: its attributes and cached bytes must be asked for again.
    case inode(UInt64)
}

/// Where the tree reports what the kernel must forget; the FUSE layer implements it (the tree knows
/// no libfuse). Called from the source watcher's thread, never from a request's.
public protocol InvalidationSink: AnyObject, Sendable {
    func invalidate(_ invalidations: [Invalidation])
}
