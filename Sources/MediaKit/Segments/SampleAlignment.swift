/// Two films' decoded samples of one stretch, lined up to the sample, and where they stop being
/// the same sound: how `BoundaryRefiner` places a shared stretch's ends.
///
/// The same sound decoded from two files differs by the codecs' noise only once the two are
/// lined up to the sample at the rate it was cut at (the films' own rate, not Chromaprint's: a
/// lag between two sample grids turns the highs' phases and the samples stop matching).
struct SampleAlignment {
    /// The first film's samples, and the second's.
    let a: [Float]
    let b: [Float]
    /// Samples a second.
    let rate: Double

    /// Samples per block compared: 20 ms.
    var block: Int { max(1, Int(rate / 50)) }
    /// A block matches when the difference's energy is below this share of the two's.
    static let matching: Float = 0.3
    /// Below this energy a sample (of -60 dBFS) a block is quiet: silence matches no sound.
    static let quiet: Float = 1e-6
    /// Blocks in a row that do not match end the shared sound (100 ms).
    static let endingBlocks = 5
    /// The lowest correlation of the two over the anchor for them to be the same sound.
    static let sameSound: Float = 0.5

    /// The index of `b` that lines up with index 0 of `a` (`b[i + shift]` is `a[i]`): the one
    /// within `around ± reach` at which the two correlate best over `anchor` (indices of `a`), or
    /// nil where no lag correlates them enough to be the same sound. Searched on an average of
    /// every few samples (a sum at about 4,000 a second) first, then to the sample around it.
    func shift(over anchor: Range<Int>, around: Int, reach: Int) -> Int? {
        let factor = max(1, Int(rate / 4_000))
        let coarse = Self.decimated(a, by: factor), coarseB = Self.decimated(b, by: factor)
        let coarseAnchor = (anchor.lowerBound / factor)..<(anchor.upperBound / factor)
        guard let (rough, _) = Self.best(coarse, coarseB, over: coarseAnchor,
                                         shifts: (around - reach) / factor...(around + reach) / factor) else { return nil }
        guard let (fine, correlation) = Self.best(a, b, over: anchor,
                                                  shifts: rough * factor - 2 * factor...rough * factor + 2 * factor),
              correlation >= Self.sameSound else { return nil }
        return fine
    }

    /// Whether block `k` of `a` (samples `k * block ..<`) matches `b` at `shift`; nil where `b`
    /// has no samples there.
    func matches(block k: Int, shift: Int) -> Bool? {
        let from = k * block, to = from + block
        guard from >= 0, to <= a.count, from + shift >= 0, to + shift <= b.count else { return nil }
        var difference: Float = 0, energyA: Float = 0, energyB: Float = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for i in from..<to {
                    let x = a[i], y = b[i + shift]
                    difference += (x - y) * (x - y)
                    energyA += x * x
                    energyB += y * y
                }
            }
        }
        let quiet = Self.quiet * Float(block)
        if energyA < quiet || energyB < quiet { return false }
        return difference < Self.matching * (energyA + energyB)
    }

    /// Where the sound shared from block `anchor` on stops, going back (`forward` false: the first
    /// sample of the earliest block matching) or on (the end of the last block matching): at
    /// `endingBlocks` blocks in a row that do not match, or where either film's samples end.
    func edge(from anchor: Int, shift: Int, forward: Bool) -> Int {
        var k = anchor, edge = anchor, missed = 0
        while missed < Self.endingBlocks, let matched = matches(block: k, shift: shift) {
            if matched { edge = k; missed = 0 } else { missed += 1 }
            k += forward ? 1 : -1
        }
        return forward ? (edge + 1) * block : edge * block
    }

    /// The average of every `factor` samples.
    static func decimated(_ x: [Float], by factor: Int) -> [Float] {
        guard factor > 1 else { return x }
        return x.withUnsafeBufferPointer { x in
            (0..<(x.count / factor)).map { i in
                var sum: Float = 0
                for j in i * factor..<(i + 1) * factor { sum += x[j] }
                return sum / Float(factor)
            }
        }
    }

    /// The shift within `shifts` at which `x` over `range` correlates best with `y`, and that
    /// normalised correlation (1: the same up to a gain); nil where `y` has too few samples.
    /// Where two correlate as well, the lower shift.
    static func best(_ x: [Float], _ y: [Float], over range: Range<Int>, shifts: ClosedRange<Int>) -> (Int, Float)? {
        let usable = shifts.clamped(to: -range.lowerBound...(y.count - range.upperBound))
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= x.count, !usable.isEmpty else { return nil }
        var best: (Int, Float)?
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                var energyX: Float = 0
                for i in range { energyX += x[i] * x[i] }
                func consider(_ shift: Int, product: Float, energyY: Float) {
                    let correlation = product / max(1e-12, (energyX * energyY).squareRoot())
                    if correlation > best?.1 ?? -2 { best = (shift, correlation) }
                }
                var shift = usable.lowerBound
                while shift + Lanes.scalarCount - 1 <= usable.upperBound {
                    let (products, energies) = sums(x, y, over: range, shifts: shift)
                    for k in 0..<Lanes.scalarCount { consider(shift + k, product: products[k], energyY: energies[k]) }
                    shift += Lanes.scalarCount
                }
                while shift <= usable.upperBound {
                    var product: Float = 0, energyY: Float = 0
                    for i in range {
                        let v = y[i + shift]
                        product += x[i] * v
                        energyY += v * v
                    }
                    consider(shift, product: product, energyY: energyY)
                    shift += 1
                }
            }
        }
        return best
    }

    /// Shifts `sums` takes at once, one a lane.
    typealias Lanes = SIMD8<Float>

    /// For each of the shifts `first ..< first + Lanes.scalarCount`, the sum over `range` of
    /// `x[i] * y[i + shift]` and of `y[i + shift]²`. Each lane adds its products in the order of
    /// `i`, as a loop over one shift does, multiplying and adding apart (never fused): its sums are
    /// that loop's to the bit, and the shift found the same, while the lanes keep the processor
    /// busy where one sum waits for each addition.
    private static func sums(_ x: UnsafeBufferPointer<Float>, _ y: UnsafeBufferPointer<Float>, over range: Range<Int>,
                             shifts first: Int) -> (products: Lanes, energies: Lanes) {
        var products = Lanes(), energies = Lanes()
        let ys = UnsafeRawPointer(y.baseAddress!)
        let stride = MemoryLayout<Float>.stride
        for i in range {
            let v = ys.loadUnaligned(fromByteOffset: (i + first) * stride, as: Lanes.self)
            products += Lanes(repeating: x[i]) * v
            energies += v * v
        }
        return (products, energies)
    }
}
