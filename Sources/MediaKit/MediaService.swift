import CAV

/// The narrow interface through which the rest of mediafs reaches the media layer.
///
/// Requests and answers are plain values (paths, numbers, `Codable` structs), so that an
/// implementation could run the work in a separate worker process.
public protocol MediaService: Sendable {
    /// Probes the file at `path` (of `size` bytes).
    /// - Throws: `MediaError`.
    func probe(path: String, size: Int64) throws -> MediaInfo

    /// Every chapter of the file at `path` (of `size` bytes): all editions, every title in every
    /// language, flags and per-chapter artwork references. An empty list for a file without
    /// chapters. Matroska/WebM and QuickTime/MP4 are read by mediafs itself (libavformat keeps
    /// one title per chapter); other formats through libavformat.
    /// - Throws: `MediaError`: `.damaged` for a broken chapter structure, `.notMedia`, `.io`.
    func chapters(path: String, size: Int64) throws -> ChapterList

    /// The bytes of the file's own image for chapter `index` (0-based, in
    /// `chapters(path:size:).defaultEdition.chapters`): a sample of an MP4/QuickTime chapter image
    /// track, JPEG (`mjpeg`) or PNG (`png`), as stored. Nil when the chapter has no image of its own.
    /// - Throws: `MediaError`.
    func chapterImage(path: String, size: Int64, index: Int) throws -> ChapterImage?
}

/// Does the media work in this process.
public struct LocalMediaService: MediaService {
    /// Seconds a probe may take before it is interrupted.
    public var probeTimeout: Double

    /// Also silences libav*'s own messages on stderr: each failure reaches the log once, as a
    /// `MediaError` in the caller's log line naming the file.
    public init(probeTimeout: Double = 20) {
        self.probeTimeout = probeTimeout
        av_log_set_level(AV_LOG_FATAL)
    }

    public func probe(path: String, size: Int64) throws -> MediaInfo {
        try Prober.probe(path: path, size: size, timeout: probeTimeout)
    }

    public func chapters(path: String, size: Int64) throws -> ChapterList {
        try ChapterReader.read(path: path, size: size, timeout: probeTimeout)
    }

    public func chapterImage(path: String, size: Int64, index: Int) throws -> ChapterImage? {
        try ChapterReader.image(path: path, size: size, index: index, timeout: probeTimeout)
    }
}
