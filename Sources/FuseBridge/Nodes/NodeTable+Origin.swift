import MediaTree

extension NodeTable {
    /// Where the kernel was given a number, so that its node can be made again and a source change
    /// can name it.
    enum Origin {
        case root
        /// The entry at this index of a folder's listing.
        case listed(KeptListing, Int)
        /// The name looked up in the folder numbered `parent`, and the source path of its node.
        case lookedUp(parent: UInt64, name: Name, path: SourcePath)
        /// A removed entry that later ones with the same wanted number were placed past.
        case tombstone
    }
}
