import CAV

/// The narrow interface through which the rest of mediafs reaches the media layer.
///
/// Requests and answers are plain values (paths, numbers, `Codable` structs), so that an
/// implementation could run the work in a separate worker process.
public protocol MediaService: Sendable {
    /// Probes the file at `path` (of `size` bytes).
    /// - Throws: `MediaError`.
    func probe(path: String, size: Int64) throws -> MediaInfo
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
}
