@testable import MediaKit
import Testing

/// `SampleAlignment.best`, which sums eight shifts at once, against the plain loop over one shift
/// at a time it stands for: the same shift and the same correlation, to the bit, whatever the
/// number of shifts (a whole number of lanes or not) and where two shifts correlate as well.
@Suite struct SegmentAlignmentTests {
    /// The loop `best` stands for: every shift in turn, each sum in the order of the samples.
    static func plainBest(_ x: [Float], _ y: [Float], over range: Range<Int>, shifts: ClosedRange<Int>) -> (Int, Float)? {
        let usable = shifts.clamped(to: -range.lowerBound...(y.count - range.upperBound))
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= x.count, !usable.isEmpty else { return nil }
        var energyX: Float = 0
        for i in range { energyX += x[i] * x[i] }
        var best: (Int, Float)?
        for shift in usable {
            var product: Float = 0, energyY: Float = 0
            for i in range {
                product += x[i] * y[i + shift]
                energyY += y[i + shift] * y[i + shift]
            }
            let correlation = product / max(1e-12, (energyX * energyY).squareRoot())
            if correlation > best?.1 ?? -2 { best = (shift, correlation) }
        }
        return best
    }

    /// Noise-like samples (a fixed generator: the same every run).
    static func samples(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 20_001 - 10_000) / 10_000
        }
    }

    @Test(arguments: [0...0, -3...4, -40...40, -57...63, 100...300, -5_000...5_000])
    func theSameShiftAndCorrelationAsOneShiftAtATime(shifts: ClosedRange<Int>) {
        let x = Self.samples(4_000, seed: 1)
        // y is x delayed by 37 samples, with noise of its own: one shift stands out.
        let noise = Self.samples(4_400, seed: 2)
        let y = (0..<4_400).map { i in (i >= 37 && i - 37 < x.count ? x[i - 37] : 0) + 0.3 * noise[i] }
        for range in [1_000..<3_000, 0..<4_000, 2_500..<2_517] {
            let found = SampleAlignment.best(x, y, over: range, shifts: shifts)
            let plain = Self.plainBest(x, y, over: range, shifts: shifts)
            #expect(found?.0 == plain?.0, "\(range) over \(shifts)")
            #expect(found?.1.bitPattern == plain?.1.bitPattern, "\(range) over \(shifts)")
        }
    }

    @Test func theLowerOfTwoShiftsThatCorrelateAsWell() {
        // A period of 4 samples: every fourth shift correlates exactly as well.
        let x = (0..<400).map { Float([1, 0.5, -1, -0.25][$0 % 4]) }
        let found = SampleAlignment.best(x, x, over: 50..<350, shifts: -17...17)
        #expect(found?.0 == Self.plainBest(x, x, over: 50..<350, shifts: -17...17)?.0)
        #expect(found?.0 == -16)
    }
}
