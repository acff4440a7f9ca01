import Foundation
import Logging
import MediaKit
import Synchronization

/// The virtual tree mediafs shows: the source mirrored, each media file a folder.
///
/// The hub the nodes work through: its services (the source, the media service, the records of
/// what is known of each version, what is made, the pools). Each
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
    /// What is learnt of each version of each media file (`VersionFacts`: its probe, chapters,
    /// plans and listing facts), in one cache bounded in bytes.
    let records: VersionRecords
    /// The probe database's kind for this mount's settings (`ListingFacts.kind(for:)`).
    let listingFactsKind: String
    /// The names `thumbs/` lists, by what they depend on: the same for most films of a library.
    let thumbnailNames = MemoryCache<ThumbnailListing.Shape, [Name]>(capacity: 4_096)
    /// The media folders listed in this mount, by key hash (`listingAhead` lists the others): by
    /// path, as hard links to one file are folders of their own.
    let listedMediaFolders = Mutex<Set<UInt64>>([])
    /// Everything made from media files (pictures, and documents in its memory), by `MadeKey`:
    /// kept in one memory cache, and pictures on disk, made on `generation` (`MediaTree.made`).
    let made: MadeOnPool<MadeKey, MadeBytes>
    let generation: WorkerPool
    /// Probes kept across mounts (`<cache-dir>/probes.sqlite`); nil with no cache folder.
    let probeDatabase: ProbeDatabase?
    /// Made files kept across mounts (`<cache-dir>/files/`); nil with no cache folder.
    let diskCache: DiskCache?
    /// Extracted tracks: passes on a pool of their own, kept in the cache folder.
    let tracks: TrackStore
    /// The server layout's folders' names, by source folder (`FolderNames`).
    let serverFolderNames = MemoryCache<SourcePath, FolderNames>(capacity: FolderNames.keptNames)
    /// The watcher of source changes, once `watchSource(reportingTo:)` started it.
    let watching = Mutex<SourceWatcher?>(nil)
    /// Where source changes are reported (`watchSource(reportingTo:)`), and what an analysis
    /// changed in what a version shows.
    let changeSink = Mutex<(any SourceChangeSink)?>(nil)
    /// The background analysis (`--analysis background`), and the requests it yields to.
    let analysisQueue: AnalysisQueue
    public let activity = RequestActivity()

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
        records = VersionRecords(capacity: settings.versionFactsBytes)
        made = MadeOnPool(pool: generation, memory: MemoryCache(capacity: settings.memoryCacheBytes),
                              shelf: diskCache.map(ImageShelf.init), cost: { $0.cost },
                              counters: { [statistics] in statistics.counters(of: $0.kind) },
                              pack: { $0.packed() }, unpack: { try $0.unpacked() })
        tracks = TrackStore(settings: settings, diskCache: diskCache, logger: logger, statistics: statistics)
        analysisQueue = AnalysisQueue(enabled: settings.analysis == .background)
        analysisQueue.start { [weak self] job in self?.analyseInBackground(job) }
    }

    /// Stops watching the source and removes what the tree keeps only for this mount (a private
    /// track folder under /tmp, made when the cache folder could not be written). Call once, at unmount.
    public func close() {
        stopWatching()
        analysisQueue.stop()
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
