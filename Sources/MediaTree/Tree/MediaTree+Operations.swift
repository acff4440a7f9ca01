import MediaKit

/// The operations, on a node the caller holds (FuseBridge's node table keeps them by number): each
/// brings the node up to date with the source (`current`) and hands the request to it.
extension MediaTree {
    /// `node` as the source is now: itself when nothing changed, a node made anew from the changed
    /// source (same key, so the same number), or an error.
    /// - Throws: `TreeError.notFound` where the source no longer shows it; `.stale` where the node
    ///   stands for a version of the source that is gone (a made file).
    public func current(_ node: any TreeNode) throws -> any TreeNode {
        try node.current(in: self)
    }

    /// The child called `name` of `folder` as the source is now, with its attributes (a track
    /// file's once its pass is done: the reply then comes from the tracks pool).
    /// Errors: `TreeError.notFound`, `.notDirectory`, `.stale`, `.io`.
    public func lookup(_ name: Name, in folder: any TreeNode, reply: @escaping Reply<(any TreeNode, Attributes)>) {
        resuming(reply) { [self] reply in
            guard name.isComponent else { throw TreeError.notFound }
            guard let folder = try current(folder) as? any FolderNode else { throw TreeError.notDirectory }
            guard let child = try folder.child(named: name, in: self) else { throw TreeError.notFound }
            child.attributes(in: self) { reply($0.map { (child, $0) }) }
        }
    }

    /// The child called `name` of `folder`, without its attributes (no pass runs): what a name
    /// listed before stands for. Nil where there is none.
    /// - Throws: as the operations do; `Pending` (run the request with `resuming`).
    public func child(named name: Name, in folder: any TreeNode) throws -> (any TreeNode)? {
        guard name.isComponent, let folder = try current(folder) as? any FolderNode else { return nil }
        return try folder.child(named: name, in: self)
    }

    /// The attributes of `node` as the source is now; for a node of a version that is gone (a made
    /// file, a file replaced by another), that version's, as the handles still open on it read it
    /// (`fstat` on them must not fail).
    /// Errors: `TreeError.notFound` where the source is gone or has changed kind.
    public func attributes(of node: any TreeNode, reply: @escaping Reply<Attributes>) {
        resuming(reply) { [self] reply in
            let now: any TreeNode
            do {
                now = try current(node)
            } catch TreeError.stale {
                now = node
            }
            now.attributes(in: self, reply: reply)
        }
    }

    /// The entries of `folder`, each with its attributes (a track file's name and type only:
    /// `nameAndTypeOnly`), and the listings of its subfolders made with it (`Listing.sublistings`).
    /// Makes no image and runs no track pass.
    /// Errors: `TreeError.notFound`, `.notDirectory`, `.io`.
    public func list(_ folder: any TreeNode, reply: @escaping Reply<Listing>) {
        resuming(reply) { [self] reply in
            guard let folder = try current(folder) as? any FolderNode else { throw TreeError.notDirectory }
            reply(.success(try folder.listing(in: self)))
        }
    }

    /// The listing of `folder` where it can be made at once from memory (`listsFromMemory`: an
    /// `ImmediateListing`; a media folder whose chapters and listing facts were read with its
    /// probe), its source unchanged (one `stat`). Nil where the request must wait its turn on a
    /// worker (a source folder, which reads the disk; a media folder not listed before, which may
    /// read the file or the probe database; a changed source, which is probed again): `list`
    /// answers those.
    public func listAtOnce(_ folder: any TreeNode) -> Result<Listing, Error>? {
        guard let lasting = folder as? any LastingListing, lasting.listsFromMemory(in: self),
              isUnchanged(ListingSource(lasting)) else { return nil }
        return Result { try lasting.listing(in: self) }
    }

    /// Whether the source a lasting listing was made from is as it was (every field of its stat: a
    /// `chmod` shows; and no analysis landed since), so that the listing may be given again.
    public func isUnchanged(_ source: ListingSource) -> Bool {
        guard let stat = SourceStat.read(source.path, root: resolvedRoot), ListingSource.stamp(stat) == source.stamp else { return false }
        // Where the record is no longer kept, what landed in it was told as a change when it
        // landed, which dropped the listings kept by whoever holds them (FuseBridge's node table).
        return (records.known(stat.identity)?.analysisStamp ?? source.analysis) == source.analysis
    }

    /// Opens the file `node` for reading: at once for the source's files and documents, from the
    /// generation pool once an image is made, from the tracks pool once a track's pass is done.
    /// Errors: `TreeError.isDirectory`, `.notFound`, `.stale` (a made file of a version that is
    /// gone: the kernel looks its name up again), `.io`.
    public func open(_ node: any TreeNode, reply: @escaping Reply<any FileContent>) {
        resuming(reply) { [self] reply in
            guard let file = try current(node) as? any FileNode else { throw TreeError.isDirectory }
            file.open(in: self, reply: reply)
        }
    }

    /// The names of the extended attributes of `node`. Makes no image.
    public func extendedAttributeNames(of node: any TreeNode, reply: @escaping Reply<[String]>) {
        resuming(reply) { [self] reply in
            let node = try current(node)
            let own = try node.extendedAttributeNames(in: self)
            reply(.success(node.key == root.key ? own + [Self.statisticsAttribute] : own))
        }
    }

    /// The value of the extended attribute `name` of `node`. A thumbnail's `time` makes the image
    /// (on the generation pool, as a read would). The root's statistics come with what
    /// `extraStatistics` gives (what the caller counts: the numbers the kernel holds), asked for
    /// only then: counting may walk a large table.
    /// Errors: `TreeError.notFound`, `.noAttribute`, `.io`.
    public func extendedAttribute(_ name: String, of node: any TreeNode,
                                  extraStatistics: @escaping @Sendable () -> [(String, Int)] = { [] },
                                  reply: @escaping Reply<[UInt8]>) {
        resuming(reply) { [self] reply in
            let node = try current(node)
            if node.key == root.key && name == Self.statisticsAttribute {
                return reply(.success(Array(statisticsDocument(adding: extraStatistics()).utf8)))
            }
            if name == Self.analysisAttribute { return try analysisAttribute(of: node, reply: reply) }
            guard try node.extendedAttributeNames(in: self).contains(name) else { throw TreeError.noAttribute }
            node.extendedAttribute(name, in: self, reply: reply)
        }
    }

    /// The mount's counters, on its root.
    public static let statisticsAttribute = "user.mediafs.stats"
}
