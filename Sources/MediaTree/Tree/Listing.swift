import MediaKit

/// A folder's entries as listed, and the source they were made from where they hold as long as it
/// stays as it was (`LastingListing`): then the listing may be kept and given again while
/// `MediaTree.isUnchanged` says so.
public struct Listing: Sendable {
    public var entries: [DirectoryEntry]
    public var source: ListingSource?
    /// The listings of subfolders among the entries, made with this one (`FolderNode.listing`).
    public var sublistings: [Sublisting] = []

    public init(entries: [DirectoryEntry], source: ListingSource? = nil) {
        self.entries = entries
        self.source = source
    }

    /// Whether every entry has its attributes (none is known by name and type only).
    public var isWhole: Bool { !entries.contains(where: \.nameAndTypeOnly) }
}

/// The listing of the subfolder at `index` of a folder's entries, made with the folder's: a media
/// folder lists its subfolders as it lists itself (they are worked out from the same version, and
/// `ls -R`, a file manager or a media server's scan open them next), so that opening one finds its
/// listing ready instead of making its node again from its name and listing it then.
public struct Sublisting: Sendable {
    public let index: Int
    public let key: NodeKey
    public let listing: Listing
}

/// The media file a lasting listing was made from, and a hash of its stat then (every field
/// `SourceStat ==` compares): kept with every listing a library's `ls -lR` keeps, so small.
public struct ListingSource: Sendable, Equatable {
    let path: AbsolutePath
    let stamp: UInt64
    /// What the version's analysis had found (`MediaVersion.analysisStamp`): a listing made before
    /// an analysis landed is not given again.
    let analysis: UInt64

    init(_ folder: any LastingListing) {
        path = folder.version.shownAs
        stamp = Self.stamp(folder.version.stat)
        analysis = folder.version.analysisStamp
    }

    static func stamp(_ stat: SourceStat) -> UInt64 {
        StableHasher.hash { hasher in
            hasher.add(stat.identity)
            hasher.add(UInt64(stat.mode) | UInt64(stat.uid) << 32)
            hasher.add(UInt64(stat.gid) | (stat.isDirectory ? 1 << 32 : 0) | (stat.isRegular ? 1 << 33 : 0))
            hasher.add(Int64(stat.modificationTime.tv_sec))
            hasher.add(Int64(stat.modificationTime.tv_nsec))
            hasher.add(Int64(stat.changeTime.tv_sec))
            hasher.add(Int64(stat.changeTime.tv_nsec))
        }
    }
}
