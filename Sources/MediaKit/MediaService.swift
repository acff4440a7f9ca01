import CAV

/// The narrow interface through which the rest of mediafs reaches the media layer.
///
/// Requests and answers are plain values (paths, numbers, `Codable` structs), so that an
/// implementation could run the work in a separate worker process.
public protocol MediaService: Sendable {
    /// Probes the file at `path` (of `size` bytes).
    /// - Throws: `MediaError`.
    func probe(path: String, size: Int64) throws -> MediaInfo

    /// Makes one thumbnail of `file`: the frame `request` asks for, scaled to its size, as a PNG.
    /// - Throws: `MediaError` (a damaged stream, a bound passed, no such video stream).
    func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail
}

/// Which version of which file: work kept for a file (an open decoder, say) is reused only for the
/// same path, size and modification time.
public struct MediaFile: Codable, Sendable, Hashable {
    public var path: String
    public var size: Int64
    public var modificationNanoseconds: Int64

    public init(path: String, size: Int64, modificationNanoseconds: Int64) {
        self.path = path
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
    }
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

    /// Not made yet: the frame maker comes in the next change.
    public func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
        throw MediaError.imageFailed(reason: "thumbnails are not implemented yet")
    }
}
