import Foundation
import Logging
import MediaKit
import Synchronization

/// The virtual tree mediafs shows: the source mirrored, each media file a folder.
///
/// The hub the nodes work through: the source, the media service, the caches and the pools. Each
/// kind of entry is one type (`TreeNode`: `SourceFolder`, `PlainFile`, `MediaFolder`, and in a
/// media folder the kinds `MediaFolderEntries.kinds` lists); the operations here bring a node up to
/// date with the source and hand the request to it. Every operation answers through a `Reply`.
/// Thread-safe; knows nothing of libfuse nor of which numbers the kernel holds (FuseBridge's node
/// table): answers are nodes, `Attributes`, listings, `FileContent` and `TreeError`.
public final class MediaTree: Sendable {
    /// The absolute path of the source folder, without a trailing slash.
    public let sourceRoot: String
    /// `sourceRoot` as bytes, and with every symbolic link resolved (links in the source may point
    /// anywhere under it).
    let rootBytes: [UInt8]
    let resolvedRoot: String
    /// The source folder itself, numbered `NodeKey.rootNumber`.
    public let root: any TreeNode
    public let settings: TreeSettings
    public let statistics: TreeStatistics
    let media: MediaService
    let logger: Logger
    /// Probe results by source identity: a changed file is a new key and is probed again. Keeps
    /// only failures that the same bytes would give again (not a timeout).
    let probes = ComputedOnce<FileIdentity, MediaInfo>(capacity: 100_000, keepsFailure: MediaTree.isLastingProbeFailure,
                                                        readsFiles: true)
    /// The tracks of each source version, planned from its probe.
    let trackPlans = ComputedOnce<FileIdentity, TrackPlan>(capacity: 100_000)
    /// The sizes of rendered documents, for listings (`renderedSize`): a number each by the
    /// document's `MadeKey.stableHash` (two documents' 64-bit hashes do not meet), so kept for
    /// many more documents than their bytes.
    let documentSizes = MemoryCache<UInt64, Int>(capacity: 65_536)
    /// What each version's listings need beyond its probe (`ListingFacts`), and those learnt since
    /// they were last written.
    let listingFactsByVersion = ComputedOnce<FileIdentity, ListingFacts>(capacity: 100_000, readsFiles: true)
    let factsToWrite = Mutex<[FileIdentity: ListingFacts]>([:])
    /// The probe database's kind for this mount's settings (`ListingFacts.kind(for:)`).
    let listingFactsKind: String
    /// Each version's `info.json` without its name (`InfoDocument.Template`), for its other names.
    let infoTemplates = ComputedOnce<FileIdentity, InfoDocument.Template>(capacity: 4_096)
    /// Each version's `chapters.json` without its name (`NamelessDocument`; nil where it cannot be split).
    let namelessChapterDocuments = ComputedOnce<FileIdentity, NamelessDocument?>(capacity: 4_096, keepsFailure: { _ in false })
    /// The names `thumbs/` lists, by what they depend on: the same for most films of a library.
    let thumbnailNames = ComputedOnce<ThumbnailListing.Shape, [Name]>(capacity: 256)
    /// The media folders listed in this mount, by key hash (`listingAhead` lists the others): by
    /// path, as hard links to one file are folders of their own.
    let listedMediaFolders = Mutex<Set<UInt64>>([])
    /// Chapter listings by source identity, each from one read of the file's chapters; nil for a
    /// file whose default edition lists no chapter. A read that failed is not kept (it throws).
    let chapterListings = ComputedOnce<FileIdentity, ChapterListing?>(capacity: 10_000, keepsFailure: { _ in false },
                                                                      readsFiles: true)
    /// How the cover and each chapter image are made (and so their sizes), by source identity. A
    /// read that failed is not kept (it throws).
    let imagePlans = ComputedOnce<PlanKey, ImagePlan?>(capacity: 100_000, keepsFailure: { _ in false })
    /// Everything made from media files (pictures, and documents in its memory), by `MadeKey`:
    /// kept in one memory cache, and pictures on disk, made on `generation` (`MediaTree.made`).
    let pictures: MadeOnPool<MadeKey, MadeBytes>
    let generation: WorkerPool
    /// Probes kept across mounts (`<cache-dir>/probes.sqlite`); nil with no cache folder.
    let probeDatabase: ProbeDatabase?
    /// Made files kept across mounts (`<cache-dir>/files/`); nil with no cache folder.
    let diskCache: DiskCache?
    /// Extracted tracks: passes on a pool of their own, kept in the cache folder.
    let tracks: TrackStore
    /// The server layout's folder names and per-version names (`ServerCaches`).
    let serverCaches = ServerCaches()
    /// The watcher of source changes, once `watchSource(reportingTo:)` started it.
    let watching = Mutex<SourceWatcher?>(nil)

    struct PlanKey: Hashable, Sendable {
        var identity: FileIdentity
        /// nil: the cover; else the chapter's index in the default edition.
        var chapter: Int?
        var format: ImageFormat
    }

    public init(sourceRoot: String, media: MediaService, logger: Logger, settings: TreeSettings = TreeSettings()) {
        var rootPath = sourceRoot
        while rootPath.count > 1 && rootPath.hasSuffix("/") { rootPath.removeLast() }
        self.sourceRoot = rootPath
        rootBytes = Array(rootPath.utf8)
        if let resolved = realpath(rootPath, nil) {
            self.resolvedRoot = String(cString: resolved)
            free(resolved)
        } else {
            self.resolvedRoot = rootPath
        }
        self.media = media
        self.logger = logger
        self.settings = settings
        statistics = TreeStatistics(kinds: settings.layout.madeKinds)
        listingFactsKind = ListingFacts.kind(for: settings)
        root = SourceFolder(path: .root, placement: nil)
        generation = WorkerPool(name: "mediafs-generate", threads: settings.generationThreads)
        (probeDatabase, diskCache) = Self.openCaches(settings: settings, logger: logger)
        pictures = MadeOnPool(pool: generation, memory: MemoryCache(capacity: settings.memoryCacheBytes),
                              shelf: diskCache.map(ImageShelf.init), cost: { $0.cost },
                              counters: { [statistics] in statistics.counters(of: $0.kind) },
                              pack: { $0.packed() }, unpack: { try $0.unpacked() })
        tracks = TrackStore(settings: settings, diskCache: diskCache, logger: logger, statistics: statistics)
    }

    /// Stops watching the source and removes what the tree keeps only for this mount (a private
    /// track folder under /tmp, made when the cache folder could not be written). Call once, at unmount.
    public func close() {
        stopWatching()
        tracks.close()
    }

    /// The absolute path of the source entry at `path`.
    func absolute(_ path: SourcePath) -> AbsolutePath {
        guard !path.isRoot else { return AbsolutePath(bytes: rootBytes) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(rootBytes.count + 1 + path.bytes.count)
        bytes += rootBytes
        bytes.append(0x2F)
        bytes += path.bytes
        return AbsolutePath(bytes: bytes)
    }
}
