/// How one analysis of a file (its scenes, its audio's fingerprints) is to run.
public struct AnalysisRequest: Sendable {
    /// Decoding threads: one in the background, the processors in `mediafs warm`.
    public var threads: Int
    /// Called between units of work (a group of pictures, a second of audio); the background
    /// worker waits there while reads are being served, so that it yields to them. Throws
    /// (`MediaError.cancelled`) where the work is to stop: the analysis then fails with it.
    public var pause: @Sendable () throws -> Void
    /// Called now and then with the share of the work done, 0 to 1 (`mediafs warm`'s progress).
    public var progress: @Sendable (Double) -> Void
    /// Seconds the whole analysis may take before it fails with `MediaError.timedOut`.
    public var timeout: Double
    /// Whether it gives way to the requests being served (the background's): its video decoder
    /// takes a share of the budget of decoders at work only where nobody waits for one, and is
    /// freed, its share given back, before every pause.
    public var yields: Bool
    /// Asked between packets inside a unit of decoding by a request that yields: whether reads are
    /// being served now, so that it holds still (its decoder kept, not to decode its unit again)
    /// until they are done. Throws as `pause` does where the work is to stop.
    public var isBusy: @Sendable () throws -> Bool

    public init(threads: Int = 1, timeout: Double = 3_600, yields: Bool = false, pause: @escaping @Sendable () throws -> Void = {},
                isBusy: @escaping @Sendable () throws -> Bool = { false }, progress: @escaping @Sendable (Double) -> Void = { _ in }) {
        self.threads = threads
        self.timeout = timeout
        self.yields = yields
        self.pause = pause
        self.isBusy = isBusy
        self.progress = progress
    }
}
