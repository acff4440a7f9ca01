import Synchronization

/// A kind of thing the tree makes: thumbnails, chapter images, covers, storyboard sheets, contact
/// sheets, documents, track sets. Declared by the type of entry that makes it (its
/// `MediaFolderEntry.madeKinds`), so that the registry of entries (`MediaFolderEntries`) is also
/// the registry of counters: `user.mediafs.stats` shows `<name>_made`, `<name>_from_disk` and
/// `<name>_failures` for every kind registered.
struct MadeKind: Hashable, Sendable {
    /// The counters' stem (`thumbnails` → `thumbnails_made`) and the disk cache keys' prefix:
    /// never change it for a kind that exists (its kept files would be lost).
    let name: String
    /// Part of every disk cache key of the kind: raised when what a recipe makes changes for the
    /// same recipe (another encoder, say), so files kept by an older build are not served.
    let revision: Int
}

/// How often things of one kind were made, found on disk (made by an earlier mount), or failed.
final class MadeCounters: Sendable {
    let made = Atomic<Int>(0)
    let fromDisk = Atomic<Int>(0)
    let failures = Atomic<Int>(0)

    /// The counters as `user.mediafs.stats` fields.
    func fields(of kind: MadeKind) -> [(String, Int)] {
        [("\(kind.name)_made", made.load(ordering: .relaxed)),
         ("\(kind.name)_from_disk", fromDisk.load(ordering: .relaxed)),
         ("\(kind.name)_failures", failures.load(ordering: .relaxed))]
    }
}
