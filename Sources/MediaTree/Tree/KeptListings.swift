import Synchronization

/// A folder whose listing is worked out from its version of the media file and the mount's
/// settings alone (the probe, the chapter list, the plans of its pictures, the sizes of its tracks:
/// their files are bit-exact), so it is the same every time while the source is: `MediaFolder` and
/// its subfolders. The tree keeps such a listing once made (`KeptListings`), unless an entry of it
/// is known by name and type only (a track whose pass is not remembered): that one gains its size.
protocol LastingListing: FolderNode {
    var version: MediaVersion { get }
}

/// The listings of lasting folders, by the folder's inode number, each with the stat of the version
/// it was made from: a library listed again (`ls -lR` after a remount lists 400,000 entries in 55,000
/// folders, each every time) is answered from here, where making a listing named, sized and
/// numbered every entry again (the numbering alone, two hash tables of the size of the tree, was
/// most of it).
///
/// A kept listing is given while its folder's version has the same stat (every field: a `chmod`
/// shows) and no inode number was dropped since it was made (`InodeTable.removals`): a dropped
/// number may be one of its entries', which the kernel must then not be given (the listing is made
/// again, numbering those entries again). The tree forgets a folder's listing when its number is
/// dropped, so this holds as many as the folders the kernel holds, about 100 bytes per entry.
final class KeptListings: Sendable {
    private struct Kept {
        var stat: SourceStat
        var removals: UInt64
        var entries: [DirectoryEntry]
    }

    private let kept = Mutex<[UInt64: Kept]>([:])

    /// The listing of the folder numbered `inode` made from a version with `stat`, if kept and
    /// no number was dropped since (`removals` is the table's count now).
    func listing(of inode: UInt64, stat: SourceStat, removals: UInt64) -> [DirectoryEntry]? {
        kept.withLock { kept in
            guard let listing = kept[inode], listing.removals == removals, listing.stat == stat else { return nil }
            return listing.entries
        }
    }

    /// Keeps `entries` as the listing of the folder numbered `inode` at a version with `stat`,
    /// made when the table had dropped `removals` numbers (counted before it was made).
    func keep(_ entries: [DirectoryEntry], of inode: UInt64, stat: SourceStat, removals: UInt64) {
        kept.withLock { $0[inode] = Kept(stat: stat, removals: removals, entries: entries) }
    }

    /// Forgets the listing of the folder numbered `inode` (its number is dropped).
    func forget(_ inode: UInt64) {
        _ = kept.withLock { $0.removeValue(forKey: inode) }
    }

    /// How many listings are kept.
    var count: Int { kept.withLock { $0.count } }
}
