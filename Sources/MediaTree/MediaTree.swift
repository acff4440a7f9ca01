import Foundation
import Logging
import MediaKit
import Synchronization

/// The virtual tree mediafs shows: the source mirrored, each media file a folder.
///
/// Thread-safe. Calls that return a value may block on a probe, so callers that must stay responsive
/// run them off their own threads; calls that make images (`open`, `extendedAttribute`) answer
/// through a completion, from the generation pool, and never block the caller on a decode. Knows
/// nothing of libfuse: answers are `Attributes`, listings, `FileContent` and `TreeError`.
public final class MediaTree: Sendable {
    /// The absolute path of the source folder, without a trailing slash.
    public let sourceRoot: String
    /// `sourceRoot` with every symbolic link resolved: links in the source may point anywhere under it.
    let resolvedRoot: String
    public let inodes = InodeTable()
    public let settings: TreeSettings
    public let statistics = TreeStatistics()
    let media: MediaService
    let logger: Logger
    /// Probe results by source identity: a changed file is a new key and is probed again.
    let probes = SharedWork<FileIdentity, MediaInfo>(capacity: 100_000)
    /// The source version each file was last opened at (for the kernel's page cache).
    let openedVersions = OpenedVersions()
    /// The tracks of each source version, planned from its probe (listings and lookups of
    /// `tracks/` ask for it many times).
    let trackPlans = SharedWork<FileIdentity, TrackPlan>(capacity: 100_000)
    /// Rendered `info.json` by source identity and name.
    let infoDocuments = SharedWork<InfoKey, [UInt8]>(capacity: 4_096)
    /// Each version's `info.json` without its name (`InfoDocument.Template`), for its other names.
    let infoTemplates = SharedWork<FileIdentity, InfoDocument.Template>(capacity: 4_096)
    /// Chapter folders by source identity, each from one read of the file's chapters; nil for a
    /// file whose default edition lists no chapter.
    let chapterFolders = SharedWork<FileIdentity, ChapterFolder?>(capacity: 10_000)
    /// How `cover.png` and each chapter image are made (and so their sizes), by source identity.
    let imagePlans = SharedWork<PlanKey, ImagePlan?>(capacity: 100_000)
    /// Rendered `chapters.json` and `chapters.txt` by source identity and name.
    let chapterDocuments = SharedWork<InfoKey, [UInt8]>(capacity: 4_096)
    /// Made images (thumbnails, chapter images, covers) by source version and what they show,
    /// made on `generation` and kept in one memory cache.
    let images: SharedJobs<ImageKey, MadeImage>
    let generation: WorkerPool
    /// Probes kept across mounts (`<cache-dir>/probes.sqlite`); nil with no cache folder.
    let probeDatabase: ProbeDatabase?
    /// Made files kept across mounts (`<cache-dir>/files/`); nil with no cache folder.
    let diskCache: DiskCache?
    /// Extracted tracks: passes on a pool of their own, kept in the cache folder (bounded with
    /// `diskCache`'s files when there is one).
    let tracks: TrackStore
    /// The watcher of source changes, once `watchSource(reportingTo:)` started it.
    let watching = Mutex<SourceWatcher?>(nil)

    struct InfoKey: Hashable, Sendable {
        var identity: FileIdentity
        var name: String
    }

    /// Which image of which version of a file.
    enum ImageKey: Hashable, Sendable {
        case thumbnail(FileIdentity, ThumbnailRequest)
        /// A cover or chapter image; a chapter shown by the cover shares the cover's key.
        case picture(FileIdentity, ImagePlan)
    }

    struct PlanKey: Hashable, Sendable {
        var identity: FileIdentity
        /// nil: `cover.png`; else the chapter's index in the default edition.
        var chapter: Int?
    }

    public init(sourceRoot: String, media: MediaService, logger: Logger, settings: TreeSettings = TreeSettings()) {
        var root = sourceRoot
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.sourceRoot = root
        if let resolved = realpath(root, nil) {
            self.resolvedRoot = String(cString: resolved)
            free(resolved)
        } else {
            self.resolvedRoot = root
        }
        self.media = media
        self.logger = logger
        self.settings = settings
        generation = WorkerPool(name: "mediafs-generate", threads: settings.generationThreads)
        (probeDatabase, diskCache) = Self.openCaches(settings: settings, logger: logger)
        images = SharedJobs(pool: generation, cache: MemoryCache(capacity: settings.memoryCacheBytes),
                            cost: { $0.png.count })
        tracks = TrackStore(settings: settings, diskCache: diskCache, logger: logger, statistics: statistics)
    }

    /// Stops watching the source and removes what the tree keeps only for this mount (a private
    /// track folder under /tmp, made when the cache folder could not be written). Call once, at unmount.
    public func close() {
        stopWatching()
        tracks.close()
    }

    func absolute(_ rel: String) -> String {
        rel.isEmpty ? sourceRoot : sourceRoot + "/" + rel
    }

    /// The node named `name` in the folder `parent`, with its attributes.
    /// - Throws: `TreeError.notFound`, `.notDirectory`.
    public func lookup(parent: UInt64, name: String) throws -> Attributes {
        guard let parentNode = inodes.node(for: parent) else { throw TreeError.notFound }
        guard parentNode.isDirectory else { throw TreeError.notDirectory }
        guard name != "." && name != ".." && !name.contains("/") else { throw TreeError.notFound }
        if case .sourceFolder(let rel) = parentNode {
            let childRel = RelPath.join(rel, name)
            guard let stat = sourceStat(childRel) else { throw TreeError.notFound }
            return try attributes(of: classify(rel: childRel, stat: stat), stat: stat)
        }
        let stat = try validStat(of: parentNode)
        let info = try probe(rel: parentNode.rel, stat: stat)
        guard let node = mediaChild(named: name, of: parentNode, info: info, stat: stat) else { throw TreeError.notFound }
        return try attributes(of: node, stat: stat)
    }

    /// Whether `inode` names a node (it was given and not dropped since).
    public func isNumbered(_ inode: UInt64) -> Bool {
        inodes.holds(inode)
    }

    /// Drops the number `inode`, which the kernel no longer holds, and what the tree keeps by it
    /// (the version it was last opened at). Seen again, the node is numbered again, with the same
    /// number (`InodeTable`).
    public func drop(_ inode: UInt64) {
        inodes.remove(inode)
        openedVersions.forget([inode])
    }

    /// The attributes of the node numbered `inode`, from the source as it is now.
    /// - Throws: `TreeError.notFound` where the source is gone or has changed kind.
    public func attributes(of inode: UInt64) throws -> Attributes {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        var attributes = try attributes(of: node, stat: validStat(of: node))
        // An older number of a replaced file (still open) keeps its own number.
        attributes.inode = inode
        return attributes
    }

    /// The names in the folder numbered `inode`, each with its attributes. Makes no image and runs
    /// no track pass: a track folder's entries carry their name and type only (`nameAndTypeOnly`).
    /// - Throws: `TreeError.notFound`, `.notDirectory`, `.io`.
    public func list(_ inode: UInt64) throws -> [DirectoryEntry] {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        guard node.isDirectory else { throw TreeError.notDirectory }
        let stat = try validStat(of: node)
        if case .sourceFolder(let rel) = node { return try listSourceFolder(rel: rel) }
        let info = try probe(rel: node.rel, stat: stat)
        if case .trackGroup = node { return trackListing(of: node, info: info, stat: stat) }
        if case .thumbsFolder(let rel) = node { return thumbsListing(rel: rel, info: info, stat: stat) }
        return try mediaChildren(of: node, info: info, stat: stat).map {
            DirectoryEntry(name: $0.name, attributes: try attributes(of: $0.node, stat: stat))
        }
    }

    /// Opens the file numbered `inode` for reading and hands it to `completion`: at once for the
    /// source's files and documents, from the generation pool once an image is made, from the
    /// tracks pool once a track's pass is done.
    /// Errors: `TreeError.isDirectory`, `.notFound`, `.io`.
    public func open(_ inode: UInt64, completion: @escaping @Sendable (Result<any FileContent, Error>) -> Void) {
        do {
            guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
            let stat = try validStat(of: node)
            if node.isDirectory { throw TreeError.isDirectory }
            let unchanged = openedVersions.open(inode, at: stat.identity)
            switch node {
            case .plainFile(let rel), .original(let rel):
                completion(.success(try SourceFileContent(path: absolute(rel), keepsKernelCache: unchanged)))
            case .info(let rel):
                completion(.success(BytesContent(bytes: try infoDocument(rel: rel, stat: stat), keepsKernelCache: unchanged)))
            case .chaptersJSON(let rel), .chaptersText(let rel):
                let bytes = try chapterDocument(node, rel: rel, stat: stat)
                completion(.success(BytesContent(bytes: bytes, keepsKernelCache: unchanged)))
            case .thumbnail(let rel, let name):
                try thumbnail(rel: rel, name: name, stat: stat) { result in
                    completion(result.map { BytesContent(bytes: $0.png, keepsKernelCache: unchanged) })
                }
            case .cover, .chapterImage:
                try picture(of: node, stat: stat) { result in
                    completion(result.map { BytesContent(bytes: $0.png, keepsKernelCache: unchanged) })
                }
            case .track(let rel, let group, let name):
                try openTrack(rel: rel, group: group, name: name, stat: stat, keepsKernelCache: unchanged,
                              completion: completion)
            case .sourceFolder, .mediaFolder, .chaptersFolder, .thumbsFolder, .tracksFolder, .trackGroup:
                throw TreeError.isDirectory
            }
        } catch {
            completion(.failure(error))
        }
    }
}
