import Synchronization

/// Counts of the work the tree has done since mount, for `user.mediafs.stats` on the mount's root
/// (tests count decodes with it; users see what the cache saves).
public final class TreeStatistics: Sendable {
    /// Media files opened by the probe.
    let probes = Atomic<Int>(0)
    /// Probes answered by the probe database without opening the file.
    let probesFromDatabase = Atomic<Int>(0)
    /// Probes asked of the tree's probe cache (kept or made): a lookup's count of them.
    public let probeFetches = Atomic<Int>(0)
    /// Names in `thumbs/` parsed: one per lookup.
    public let thumbnailNameParses = Atomic<Int>(0)
    /// Thumbnails read back from the disk cache (checked) instead of made.
    let thumbnailsFromDisk = Atomic<Int>(0)
    /// Thumbnails made by the media layer (each one a decode).
    let thumbnailsMade = Atomic<Int>(0)
    /// Thumbnails the media layer could not make.
    let thumbnailFailures = Atomic<Int>(0)
    /// Chapter lists read (one per version of a media file whose folder was listed or looked into).
    let chapterListsRead = Atomic<Int>(0)
    /// Chapter images made (frames decoded, artwork copied or converted).
    let chapterImagesMade = Atomic<Int>(0)
    /// `cover.png` images made (also those shown as chapter images of an audio file).
    let coversMade = Atomic<Int>(0)
    /// Chapter images and covers made from frames or converted artwork read back from the disk
    /// cache (checked) instead of made.
    let picturesFromDisk = Atomic<Int>(0)
    /// Chapter images and covers that could not be made.
    let chapterImageFailures = Atomic<Int>(0)
    /// Passes over media files that extracted tracks (each reads the whole file once).
    let trackPasses = Atomic<Int>(0)
    /// Sets of tracks found complete on disk, made by an earlier pass or an earlier mount.
    let trackSetsReused = Atomic<Int>(0)
    /// Track files of the cache folder whose checksum differed at their first open (their set is made again).
    let trackFilesDamaged = Atomic<Int>(0)
    /// Track files made by the passes.
    let tracksMade = Atomic<Int>(0)
    /// Track files the passes could not make.
    let trackFailures = Atomic<Int>(0)

    public init() {}

    static func count(_ counter: borrowing Atomic<Int>) { counter.add(1, ordering: .relaxed) }
}
