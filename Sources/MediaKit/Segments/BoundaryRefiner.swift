/// Places the ends of a stretch two films share to a few milliseconds: their fingerprints place
/// them to about a second (an item sums 2.6 s of audio), so the audio around each end is decoded
/// from both files, lined up to the sample, and compared block by block (`SampleAlignment`).
final class BoundaryRefiner {
    private let first: AudioReader
    private let second: AudioReader

    /// Seconds either side of an end the fingerprints placed that are decoded.
    static let reach = 6.0
    /// Seconds the lag the fingerprints give may be off (an item and a half: the offset found may
    /// be a neighbour of the best, and the codecs' delays).
    static let lagReach = 0.2
    /// Where the sound is compared to line the two films up: this stretch inside the shared one,
    /// from an end (seconds).
    static let anchor = 1.0..<3.0

    init(_ first: AudioReader, _ second: AudioReader) {
        self.first = first
        self.second = second
    }

    /// `run` (on the first film's clock) with each end placed where the two films' samples stop
    /// matching; an end that cannot be placed so (no lag lines the two up: the same music mixed
    /// otherwise) stays where the fingerprints put it.
    /// - Throws: `MediaError` where either file cannot be read.
    func refine(_ run: SharedRun) throws -> SharedRun {
        var refined = run
        if let start = try place(run.start, of: run, forward: false) { refined.start = start }
        if let end = try place(run.end, of: run, forward: true) { refined.end = end }
        return refined
    }

    /// The time near `end` (the start of `run` where `forward` is false, else its end) where the
    /// shared sound stops, on the first film's clock.
    private func place(_ end: Double, of run: SharedRun, forward: Bool) throws -> Double? {
        let rate = first.sampleRate
        let span = max(0, end - Self.reach)...(end + Self.reach)
        let (aStart, a) = try samples(first, span, rate: rate)
        let (bStart, b) = try samples(second, max(0, span.lowerBound + run.lag - Self.lagReach)...(span.upperBound + run.lag + Self.lagReach), rate: rate)
        guard let aStart, let bStart else { return nil }
        let alignment = SampleAlignment(a: a, b: b, rate: Double(rate))
        let perSecond = Double(rate)
        // The anchor lies inside the shared stretch, and inside the run however short it is.
        let inside = min(Self.anchor.upperBound, run.seconds / 2)
        let anchorTimes = forward ? (end - inside)..<(end - Self.anchor.lowerBound) : (end + Self.anchor.lowerBound)..<(end + inside)
        let anchor = max(0, Int((anchorTimes.lowerBound - aStart) * perSecond))..<min(a.count, Int((anchorTimes.upperBound - aStart) * perSecond))
        guard anchor.count > alignment.block else { return nil }
        let around = Int(((aStart + run.lag - bStart) * perSecond).rounded())
        guard let shift = alignment.shift(over: anchor, around: around, reach: Int(Self.lagReach * perSecond)) else { return nil }
        let block = forward ? (anchor.upperBound - 1) / alignment.block : anchor.lowerBound / alignment.block
        let edge = alignment.edge(from: block, shift: shift, forward: forward)
        return aStart + Double(edge) / perSecond
    }

    /// `reader`'s samples over `span` at `rate`, and the first one's time (nil where it has none there).
    private func samples(_ reader: AudioReader, _ span: ClosedRange<Double>, rate: Int32) throws -> (Double?, [Float]) {
        var start: Double?
        var samples: [Float] = []
        samples.reserveCapacity(Int(Double(rate) * (span.upperBound - span.lowerBound)) + 1)
        try reader.read(from: span.lowerBound, to: span.upperBound, rate: rate) { (time: Double, chunk: UnsafeBufferPointer<Float>) in
            if start == nil { start = time }
            samples.append(contentsOf: chunk)
        }
        return (start, samples)
    }
}
