import MediaTree

/// A folder's listing as given to the kernel, kept by the folder's entry in the node table: served
/// by offset to `readdir`, given again at the next `opendir` while its source is unchanged (a
/// lasting listing: `Listing.source`), and referred to by the entries it numbered, which need
/// nothing else until the kernel asks for one by number (its name is here, its node is made then).
public final class KeptListing: Sendable {
    /// The folder's number and key (the entries' source paths follow from it).
    let folder: UInt64
    let folderKey: NodeKey
    public let entries: [DirectoryEntry]
    /// Where the listing holds while the source is as it was; nil for one made anew each time.
    let source: ListingSource?

    init(folder: UInt64, folderKey: NodeKey, listing: Listing) {
        self.folder = folder
        self.folderKey = folderKey
        entries = listing.entries
        source = listing.isWhole ? listing.source : nil
    }

    /// Whether it may be given again while its source is unchanged.
    var isLasting: Bool { source != nil }

    /// The source path the entry at `index` is made from.
    func sourcePath(of index: Int) -> SourcePath {
        MediaTree.sourcePath(of: entries[index].name, listedIn: folderKey)
    }
}
