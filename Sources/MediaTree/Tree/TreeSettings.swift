import Glibc
import MediaKit

/// The choices a mount is made with that change what the tree shows.
public struct TreeSettings: Sendable {
    /// The box of a thumbnail whose name asks for no size (`--thumb-size`).
    public var thumbnailBox: ThumbnailBox = .width(320)
    /// Whole seconds between the thumbnails `thumbs/` lists; nil picks one per duration (`--thumb-interval`).
    public var thumbnailInterval: Int?
    /// The format listings show images in (`--image-format`): every image name resolves with `.png`
    /// and `.jpg` alike; listings use this one's extension (stored artwork keeps its own).
    public var imageFormat: ImageFormat = .png
    /// Seconds between the frames of `storyboard/` (`--storyboard-interval`; Jellyfin's 10).
    public var storyboardInterval: Double = 10
    /// Tiles per storyboard sheet (`--storyboard-grid`) and their width (`--storyboard-width`).
    public var storyboardGrid = Grid(columns: 10, rows: 10)
    public var storyboardWidth = 320
    /// Frames of `contact-sheet.jpg` (`--contact-sheet-grid`; vcsi's 4×4).
    public var contactSheetGrid = Grid(columns: 4, rows: 4)

    /// Columns × rows, as `10x10`.
    public struct Grid: Sendable, Hashable {
        public var columns: Int
        public var rows: Int

        public init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }

        /// `COLUMNSxROWS`, each from 1 to 100; nil for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                  (1...100).contains(columns), (1...100).contains(rows) else { return nil }
            self.init(columns: columns, rows: rows)
        }
    }
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

    public init() {}
}
