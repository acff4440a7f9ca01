import Glibc
import MediaKit

/// The choices a mount is made with that change what the tree shows: each kind of entry's own
/// (`thumbs`, `storyboard`, …), then what all share. A setting that changes the size of a listed
/// file says so where it is declared: it is part of `listedSizes`.
public struct TreeSettings: Sendable {
    /// Media files as folders (the default) or as files with what media servers read beside them
    /// (`--layout`).
    public var layout: TreeLayout = .folders
    /// `thumbs/`, and the size of chapter images taken from frames.
    public var thumbs = ThumbsSettings()
    /// The format listings show images in (`--image-format`): every image name resolves with `.png`
    /// and `.jpg` alike; listings use this one's extension (stored artwork keeps its own).
    public var imageFormat: ImageFormat = .png
    public var storyboard = StoryboardSettings()
    public var contactSheet = ContactSheetSettings()
    /// The reader's languages, most preferred first (BCP-47 tags or ISO 639 codes): the chapter
    /// titles shown are those that best match them, and the folders of `tracks/` list the tracks
    /// in the best matching language first (`--languages`; the CLI's default comes from
    /// the environment, `PreferredLanguages.fromProcessEnvironment`). Empty: no preference.
    public var preferredLanguages: [String] = []
    /// Bytes of made images kept in memory (thumbnails, chapter images, covers).
    public var memoryCacheBytes = 256 << 20
    /// Threads making images at once; each may use FFmpeg's own threads as well.
    public var generationThreads = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// The cache folder (`--cache-dir`): the probe database, the disk cache of made files and, in
    /// its `tracks/` sub-folder, extracted tracks. Nil keeps probes and images in memory alone,
    /// and tracks in a private folder under /tmp, removed by `MediaTree.close()`.
    public var cacheDirectory: String?
    /// Bytes the disk cache's files may take together (`--cache-size`).
    public var diskCacheBytes: Int64 = 2 << 30
    /// Passes over media files extracting tracks at once (each reads a whole file), on threads of
    /// their own so that thumbnails and listings stay responsive meanwhile.
    public var trackThreads = min(2, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    /// Seconds one pass over a file (all its tracks) may take before its unfinished tracks fail.
    public var trackTimeout: Double = 900
    /// Bytes the records of the versions of media files may take in memory (`VersionRecords`):
    /// their probes, chapters, plans and listing facts.
    public var versionFactsBytes = 96 << 20
    /// Whether media files are analysed in the background as the mount meets them (scenes,
    /// intros, credits), or only when asked (`user.mediafs.analysis`, `mediafs warm`)
    /// (`--analysis`; the CLI's default is `.background`).
    public var analysis: AnalysisMode = .onDemand

    public init() {}

    /// The settings that change the size of a listed file, whose listing facts are kept apart for
    /// each of their values (`ListingFacts.kind(for:)`): a setting added here, or to one of these
    /// structs, is one (the structs are hashed field by field).
    struct ListedSizes: Encodable {
        /// Chapter images' names and plans, `chapters.json`.
        var imageFormat: ImageFormat
        /// The chapter titles in names and documents.
        var preferredLanguages: [String]
        /// The size of chapter images taken from frames.
        var thumbs: ThumbsSettings
        /// `storyboard.vtt` and `storyboard.m3u8`.
        var storyboard: StoryboardSettings
    }

    var listedSizes: ListedSizes {
        ListedSizes(imageFormat: imageFormat, preferredLanguages: preferredLanguages, thumbs: thumbs, storyboard: storyboard)
    }
}

/// When media files are analysed (`TreeSettings.analysis`).
public enum AnalysisMode: String, Sendable, CaseIterable {
    /// As the mount meets them, one at a time, at idle priority.
    case background
    /// Only when asked: `user.mediafs.analysis` of a media folder (or film), `mediafs warm`.
    case onDemand = "on-demand"
}
