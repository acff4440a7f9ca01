import Foundation
import Logging
import MediaKit
import Synchronization

/// The virtual tree mediafs shows: the source mirrored, each media file a folder.
///
/// The hub the nodes work through: the source, the media service, the caches and the pools. Each
/// kind of entry is one type (`TreeNode`: `SourceFolder`, `PlainFile`, `MediaFolder`, and in a
/// media folder the kinds `MediaFolderEntries.kinds` lists); the operations here find the node a
/// number names, bring it up to date with the source, and hand the request to it. Every operation
/// answers through a `Reply`. Thread-safe; knows nothing of libfuse: answers are `Attributes`,
/// listings, `FileContent` and `TreeError`.
public final class MediaTree: Sendable {
    /// The absolute path of the source folder, without a trailing slash.
    public let sourceRoot: String
    /// `sourceRoot` as bytes, and with every symbolic link resolved (links in the source may point
    /// anywhere under it).
    let rootBytes: [UInt8]
    let resolvedRoot: String
    public let inodes: InodeTable
    public let settings: TreeSettings
    public let statistics = TreeStatistics()
    let media: MediaService
    let logger: Logger
    /// Probe results by source identity: a changed file is a new key and is probed again. Keeps
    /// only failures that the same bytes would give again (not a timeout).
    let probes = SharedWork<FileIdentity, MediaInfo>(capacity: 100_000, keepsFailure: MediaTree.isLastingProbeFailure)
    /// The source version each file was last opened at (for the kernel's page cache).
    let openedVersions = OpenedVersions()
    /// The tracks of each source version, planned from its probe.
    let trackPlans = SharedWork<FileIdentity, TrackPlan>(capacity: 100_000)
    /// Rendered documents (`info.json`, `chapters.json`, `chapters.txt`) by source identity and name.
    let documents = SharedWork<DocumentKey, [UInt8]>(capacity: 4_096)
    /// The sizes of rendered documents, for listings: a number each, so kept for many more
    /// documents than their bytes (a library of 10,000 films lists 50,000), and a document is
    /// rendered for its size only the first time it is listed.
    let documentSizes = SharedWork<DocumentKey, Int>(capacity: 65_536)
    /// The listings of folders made from a version alone, kept while it stays (`KeptListings`).
    let listings = KeptListings()
    /// Each version's `info.json` without its name (`InfoDocument.Template`), for its other names.
    let infoTemplates = SharedWork<FileIdentity, InfoDocument.Template>(capacity: 4_096)
    /// Each version's `chapters.json` without its name (`NameGap`; nil where it cannot be split).
    let chapterDocumentGaps = SharedWork<FileIdentity, NameGap?>(capacity: 4_096)
    /// Chapter listings by source identity, each from one read of the file's chapters; nil for a
    /// file whose default edition lists no chapter.
    let chapterListings = SharedWork<FileIdentity, ChapterListing?>(capacity: 10_000)
    /// How the cover and each chapter image are made (and so their sizes), by source identity.
    let imagePlans = SharedWork<PlanKey, ImagePlan?>(capacity: 100_000)
    /// Made images (thumbnails, chapter images, covers) by source version and what they show,
    /// made on `generation` and kept in one memory cache.
    let images: SharedJobs<ImageKey, MadeImage>
    let generation: WorkerPool
    /// Probes kept across mounts (`<cache-dir>/probes.sqlite`); nil with no cache folder.
    let probeDatabase: ProbeDatabase?
    /// Made files kept across mounts (`<cache-dir>/files/`); nil with no cache folder.
    let diskCache: DiskCache?
    /// Extracted tracks: passes on a pool of their own, kept in the cache folder.
    let tracks: TrackStore
    /// The watcher of source changes, once `watchSource(reportingTo:)` started it.
    let watching = Mutex<SourceWatcher?>(nil)

    struct DocumentKey: Hashable, Sendable {
        var identity: FileIdentity
        /// Which document: its name in the media folder.
        var document: Name
        /// The original's name, for a document that holds it (a version may have several: hard
        /// links); empty for one that does not (`RenderedFile.holdsOriginalName`).
        var fileName: Name
    }

    /// Which image of which version of a file: the version, and a text naming what the image
    /// shows (a thumbnail's request, a picture's plan, a storyboard's sheet), the same text as its
    /// key in the disk cache.
    struct ImageKey: Hashable, Sendable {
        var identity: FileIdentity
        var what: String
    }

    struct PlanKey: Hashable, Sendable {
        var identity: FileIdentity
        /// nil: the cover; else the chapter's index in the default edition.
        var chapter: Int?
        var format: ImageFormat
    }

    public init(sourceRoot: String, media: MediaService, logger: Logger, settings: TreeSettings = TreeSettings()) {
        var root = sourceRoot
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.sourceRoot = root
        rootBytes = Array(root.utf8)
        if let resolved = realpath(root, nil) {
            self.resolvedRoot = String(cString: resolved)
            free(resolved)
        } else {
            self.resolvedRoot = root
        }
        self.media = media
        self.logger = logger
        self.settings = settings
        inodes = InodeTable(root: SourceFolder(path: .root, placement: nil))
        generation = WorkerPool(name: "mediafs-generate", threads: settings.generationThreads)
        (probeDatabase, diskCache) = Self.openCaches(settings: settings, logger: logger)
        images = SharedJobs(pool: generation, cache: MemoryCache(capacity: settings.memoryCacheBytes),
                            cost: { $0.bytes.count })
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

    /// The node numbered `inode`, brought up to date with the source (and kept so in the table).
    /// - Throws: `TreeError.notFound`, `.stale`.
    func resolved(_ inode: UInt64) throws -> any TreeNode {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        let current = try node.current(in: self)
        if current !== node { inodes.number(for: current) }
        return current
    }
}
