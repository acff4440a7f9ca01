import CAV

/// The narrow interface through which the rest of mediafs reaches the media layer.
///
/// Requests and answers are plain values (paths, numbers, `Codable` structs), so that an
/// implementation could run the work in a separate worker process.
public protocol MediaService: Sendable {
    /// Probes the file at `path` (of `size` bytes).
    /// - Throws: `MediaError`.
    func probe(path: String, size: Int64) throws -> MediaInfo

    /// Makes the files of `plan` (see `TrackPlan(info:)`) from the file at `path` (of `size`
    /// bytes) in one pass over it, as `<folder>/<group>/<name>`. Each file is written under a
    /// temporary name and renamed when complete; the output is bit-exact, so the same source gives
    /// the same bytes (and size) every time.
    ///
    /// A damaged file gives the tracks that could be made, whole (up to the damage; see
    /// `ExtractedTrack.cutShort`), and a failure for the others. Past `timeout` seconds (opening
    /// included), every track not yet complete fails with `MediaError.timedOut`.
    /// - Returns: one result per entry of `plan`, in its order.
    /// - Throws: `MediaError` only when nothing can be done: the file cannot be opened (`.notMedia`,
    ///   `.timedOut`), is not of `size` bytes (`.sourceChanged`), or `folder` cannot be written (`.output`).
    func extractTracks(path: String, size: Int64, plan: TrackPlan, into folder: String, timeout: Double) throws -> [TrackResult]
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

    public func extractTracks(path: String, size: Int64, plan: TrackPlan, into folder: String, timeout: Double) throws -> [TrackResult] {
        try TrackExtractor(path: path, size: size, folder: folder, timeout: timeout).run(plan)
    }
}
