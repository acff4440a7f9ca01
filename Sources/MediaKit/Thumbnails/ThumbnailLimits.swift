/// The bounds on making one thumbnail, so that a damaged or hostile file gives an error, not a hang.
public struct ThumbnailLimits: Codable, Sendable, Hashable {
    /// Seconds one request may take, opening the file included; past it, `MediaError.timedOut`.
    public var timeout: Double
    /// Frames one request may decode; past it, `MediaError.damaged` (keyframes too far apart, or a
    /// stream that never reaches the time).
    public var maxDecodedFrames: Int
    /// Packets or frames in a row that may fail to decode (skipped) before `MediaError.damaged`.
    public var maxFailuresInARow: Int
    /// Seconds ahead of a session's position within which a request decodes forward even when a
    /// keyframe lies between (below about this, forward decoding beats seeking to the keyframe).
    public var forwardWindow: Double

    public init(timeout: Double = 20, maxDecodedFrames: Int = 3000, maxFailuresInARow: Int = 8, forwardWindow: Double = 2) {
        self.timeout = timeout
        self.maxDecodedFrames = maxDecodedFrames
        self.maxFailuresInARow = maxFailuresInARow
        self.forwardWindow = forwardWindow
    }
}
