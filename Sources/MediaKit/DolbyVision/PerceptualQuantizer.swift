import Foundation

/// SMPTE ST 2084, the perceptual quantizer: the transfer of HDR10 and of Dolby Vision's IPT and
/// LMS. Signals are 0 to 1; linear light is 0 to 1 of 10,000 cd/m².
enum PerceptualQuantizer {
    static let m1: Float = 2610 / 16384
    static let m2: Float = 2523 / 4096 * 128
    static let c1: Float = 3424 / 4096
    static let c2: Float = 2413 / 4096 * 32
    static let c3: Float = 2392 / 4096 * 32

    /// Linear light (0 to 1) of a PQ signal (clamped to 0 to 1): the EOTF.
    @inline(__always)
    static func linear(_ signal: Float) -> Float {
        let p = powf(min(max(signal, 0), 1), 1 / m2)
        return powf(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// The PQ signal (0 to 1) of linear light (clamped at 0): the inverse EOTF.
    @inline(__always)
    static func signal(_ linear: Float) -> Float {
        let y = powf(max(linear, 0), m1)
        return min(powf((c1 + c2 * y) / (1 + c3 * y), m2), 1)
    }

    /// Intervals of the sampled curves: 4096, so that interpolating between samples is off by
    /// far less than a step of 8 bits (checked by `DolbyVisionTests.sampledPQCurves`).
    static let intervals = 4096

    /// `linear` sampled at signals 0, 1/4096, … 1, for `interpolate`.
    static let linearSamples: [Float] = (0...intervals).map { linear(Float($0) / Float(intervals)) }

    /// `signal` sampled at the fourth powers of 0, 1/4096, … 1 (the fourth root spreads the samples
    /// over the dark end, where the curve is steep), for `interpolate` at `sqrtf(sqrtf(x))`.
    static let signalSamples: [Float] = (0...intervals).map { signal(powf(Float($0) / Float(intervals), 4)) }

    /// The curve `samples` (of `linearSamples` or `signalSamples`) at `position` (clamped to 0 to
    /// 1), linearly between the two nearest samples: a few times faster than `powf`.
    @inline(__always)
    static func interpolate(_ samples: UnsafePointer<Float>, _ position: Float) -> Float {
        let p = min(max(position, 0), 1) * Float(intervals)
        let i = min(Int(p), intervals - 1)
        let a = samples[i]
        return a + (p - Float(i)) * (samples[i + 1] - a)
    }

    /// cd/m² of a PQ signal.
    static func nits(_ signal: Double) -> Double {
        10_000 * Double(linear(Float(signal)))
    }
}
