import Glibc
import MediaKit

/// The choices a mount is made with that change what the tree shows.
public struct TreeSettings: Sendable {
    /// The box of a thumbnail whose name asks for no size (`--thumb-size`).
    public var thumbnailBox: ThumbnailBox = .width(320)
    /// Whole seconds between the thumbnails `thumbs/` lists; nil picks one per duration (`--thumb-interval`).
    public var thumbnailInterval: Int?
    /// The reader's languages, most preferred first (BCP-47 tags or ISO 639 codes): the chapter
    /// titles shown are those that best match them (`--languages`; the CLI's default comes from
    /// the environment, `PreferredLanguages.fromProcessEnvironment`). Empty: no preference.
    public var preferredLanguages: [String] = []
    /// Bytes of made images kept in memory (thumbnails, chapter images, covers).
    public var memoryCacheBytes = 256 << 20
    /// Threads making images at once; each may use FFmpeg's own threads as well.
    public var generationThreads = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// The cache folder (`--cache-dir`): the probe database and the disk cache of made files;
    /// nil keeps everything in memory alone.
    public var cacheDirectory: String?
    /// Bytes the disk cache's files may take together (`--cache-size`).
    public var diskCacheBytes: Int64 = 2 << 30

    public init() {}
}
