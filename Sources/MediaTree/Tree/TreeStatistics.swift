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
    /// Chapter lists read (one per version of a media file whose folder was listed or looked into).
    let chapterListsRead = Atomic<Int>(0)
    /// Versions whose scenes were looked for (a remount looks for none it found before).
    let sceneAnalyses = Atomic<Int>(0)
    /// Episodes whose audio was fingerprinted.
    let audioFingerprints = Atomic<Int>(0)
    /// Seasons whose episodes were compared.
    let seasonComparisons = Atomic<Int>(0)
    /// Analyses that changed what a version shows (the kernel was told).
    let analysesLanded = Atomic<Int>(0)
    /// What was made, found on disk or failed, per kind of made thing.
    private let made: [MadeKind: MadeCounters]
    /// The kinds, in the order `user.mediafs.stats` shows them.
    let madeKinds: [MadeKind]
    /// Track files of the cache folder whose checksum differed at their first open (their set is made again).
    let trackFilesDamaged = Atomic<Int>(0)
    /// Track files made by the passes.
    let tracksMade = Atomic<Int>(0)
    /// Track files the passes could not make.
    let trackFailures = Atomic<Int>(0)

    /// Counts every kind the entries of a media folder make (`MediaFolderEntries.madeKinds`).
    public convenience init() {
        self.init(kinds: MediaFolderEntries.madeKinds)
    }

    init(kinds: [MadeKind]) {
        madeKinds = kinds
        made = Dictionary(kinds.map { ($0, MadeCounters()) }, uniquingKeysWith: { first, _ in first })
    }

    /// The counters of `kind`; nil for a kind no entry registers.
    func counters(of kind: MadeKind) -> MadeCounters? { made[kind] }

    static func count(_ counter: borrowing Atomic<Int>) { counter.add(1, ordering: .relaxed) }
}
