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
