import Foundation
import MediaKit
import Synchronization

/// Everything learnt about one version of one media file (its `FileIdentity`), in one place: its
/// probe, what is worked out from it (the track plans, the sidecars' names, `info.json`'s
/// template), what is read from the file once (the chapters, each chapter's own artwork), what its
/// listings need beyond them (`ListingFacts`) and the lengths of its documents. A version carries
/// its record (`MediaVersion.facts`);
/// the mount keeps the records in one cache bounded in bytes (`VersionRecords`), and the probe
/// database keeps each version's facts in one row (`ProbeDatabase`).
///
/// A fact is worked out once, on the thread that first needs it (`Once`, `Lazy`); nobody waits for
/// another thread's work. Adding a fact: a field here, worked out where it is needed, and a column
/// of `ProbeDatabase` if it is to outlive the mount.
final class VersionFacts: Sendable {
    let identity: FileIdentity
    /// The probe.
    let info: MediaInfo
    /// What the listings of this version need beyond the probe, for the mount's settings.
    let listing: ListingFacts
    /// The chapters as `chapters/` lists them; nil where the default edition lists none (or they
    /// cannot be read for good). Read from the file, or from the probe database with the probe.
    let chapters: Once<ChapterListing?>
    /// The audio, subtitle and video tracks `tracks/` shows, planned from the probe.
    let tracks = Lazy<TrackPlan>()
    /// The server layout's sidecar pass, planned from the probe.
    let sidecarTracks = Lazy<TrackPlan>()
    /// `info.json` without the file's name, for what the analysis had found (by its stamp).
    let infoTemplate = LatestLazy<InfoDocument.Template>()
    /// The chapters made from what the analysis found (by its stamp), for a file without its own
    /// (`FoundChapters`).
    let foundChapters = LatestLazy<ChapterListing?>()
    /// `chapters.json` without the file's name; nil where it cannot be split.
    let namelessChapters = Lazy<NamelessDocument?>()
    /// How each chapter's own artwork is made, by chapter and format: read from the file once.
    private let artwork = Mutex<[ArtworkKey: Once<ImagePlan?>]>([:])
    /// The sidecars' names, by the length of the film's base name they follow.
    private let sidecarNames = Mutex<[Int: SidecarSubtitles]>([:])
    /// The lengths of its documents, by document and the name they hold.
    private let documentSizes = Mutex<[DocumentRecipe: Int]>([:])
    /// What the analysis found: nil until it has run here or in an earlier mount.
    private let analysisFound: Mutex<VersionAnalysis?>
    /// Its `stamp`, read on every request (`MediaVersion.analysisLanded`) without the lock.
    private let analysisStampNow = Atomic<UInt64>(0)
    /// An episode's audio fingerprints, for its season's comparisons (also kept in the probe
    /// database); nil for a film, or until they are made.
    let audio: Mutex<EpisodeAudio?>
    /// Held while the version is analysed, so that the background worker and `warm` do not both.
    let analysing = NSLock()
    /// Requests waiting for its analysis (`user.mediafs.analysis`): the background, analysing it
    /// meanwhile, then no longer pauses for requests (it would wait for the one waiting for it).
    let analysisWaiters = Atomic<Int>(0)

    struct ArtworkKey: Hashable, Sendable {
        var chapter: Int
        var format: ImageFormat
    }

    /// A record of `info`, with what the probe database kept of its listing (`listing`) and its
    /// chapters (`chapters`: known, or to be read from the file).
    init(identity: FileIdentity, info: MediaInfo, listing: ListingFacts, chapters: ChapterListing?? = nil,
         analysis: VersionAnalysis? = nil, audio: EpisodeAudio? = nil) {
        self.identity = identity
        self.info = info
        self.listing = listing
        self.chapters = chapters.map { Once($0) } ?? Once(readsFiles: true)
        analysisFound = Mutex(analysis)
        analysisStampNow.store(analysis?.stamp ?? 0, ordering: .relaxed)
        self.audio = Mutex(audio)
    }

    /// The stamp of what the analysis found (`VersionAnalysis.stamp`), zero for nothing.
    var analysisStamp: UInt64 { analysisStampNow.load(ordering: .acquiring) }

    /// What the analysis found, where it has run.
    var analysis: VersionAnalysis? { analysisFound.withLock { $0 } }

    /// Changes what the analysis found (the caller writes it to the probe database and tells the
    /// kernel), as one step: the analysis of its scenes and a comparison of its season may land at
    /// once. Returns what it was and what it is now.
    func changeAnalysis(_ change: (inout VersionAnalysis) -> Void) -> (before: VersionAnalysis?, after: VersionAnalysis) {
        analysisFound.withLock { found in
            let before = found
            var after = found ?? VersionAnalysis()
            change(&after)
            found = after
            analysisStampNow.store(after.stamp, ordering: .releasing)
            return (before, after)
        }
    }

    /// The cell of chapter `chapter`'s artwork plan in `format`.
    func artwork(chapter: Int, format: ImageFormat) -> Once<ImagePlan?> {
        artwork.withLock { cells in
            let key = ArtworkKey(chapter: chapter, format: format)
            if let cell = cells[key] { return cell }
            let cell = Once<ImagePlan?>(readsFiles: true)
            cells[key] = cell
            return cell
        }
    }

    /// The sidecars' names after a base name `baseNameBytes` long, worked out from the probe once.
    func sidecars(baseNameBytes: Int) -> SidecarSubtitles {
        if let known = sidecarNames.withLock({ $0[baseNameBytes] }) { return known }
        let made = SidecarSubtitles(info: info, baseNameBytes: baseNameBytes)
        sidecarNames.withLock { $0[baseNameBytes] = made }
        return made
    }

    /// The length of `document`, where it was rendered (or its length learnt) before.
    func documentSize(_ document: DocumentRecipe) -> Int? { documentSizes.withLock { $0[document] } }

    func noteDocumentSize(_ size: Int, of document: DocumentRecipe) {
        documentSizes.withLock { $0[document] = size }
    }

    /// What the record is taken to cost in memory: its probe and chapters as stored (their JSON
    /// lengths: `ProbeDatabase`'s rows), a share for each stream and chapter, and a base for the
    /// rest. An estimate that errs high: the bound of `VersionRecords` is counted in the daemon's.
    static func estimatedBytes(info: MediaInfo, storedBytes: Int, analysis: VersionAnalysis? = nil, audio: EpisodeAudio? = nil) -> Int {
        1_024 + 2 * storedBytes + 512 * (info.streams.count + info.chapters.count) + (analysis?.estimatedBytes ?? 0)
            + 4 * ((audio?.head.items.count ?? 0) + (audio?.tail.items.count ?? 0))
    }
}
