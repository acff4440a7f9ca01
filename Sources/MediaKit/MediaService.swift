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

    public init(probeTimeout: Double = 20) {
        self.probeTimeout = probeTimeout
    }

    public func probe(path: String, size: Int64) throws -> MediaInfo {
        try Prober.probe(path: path, size: size, timeout: probeTimeout)
    }
}
