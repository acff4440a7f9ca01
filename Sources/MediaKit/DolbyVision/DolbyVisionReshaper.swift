import Foundation

/// Turns a Dolby Vision profile 5 picture (the base layer's IPT, reshaped by the frame's RPU)
/// into PQ-coded BT.2020 RGB, pixel by pixel, as libplacebo's shaders do it
/// (`pl_shader_dovi_reshape`, then `pl_shader_decode_color` for `PL_COLOR_SYSTEM_DOLBYVISION`):
///
/// 1. Reshaping: each component's curve picks the piece its own value falls in and sums that
///    piece's terms over the three components (`reshape`); the result is kept between the
///    curve's first and last pivots.
/// 2. `ycc_to_rgb_matrix` on the reshaped values less `ycc_to_rgb_offset`: PQ-coded L'M'S'.
/// 3. The PQ EOTF: linear LMS. (Both PQ curves are read from samples, `PerceptualQuantizer`.)
/// 4. `rgb_to_lms_matrix`, then the fixed matrix from Hunt-Pointer-Estevez LMS (BT.2020 white,
///    no crosstalk) to BT.2020 RGB, as one matrix: linear RGB.
/// 5. The PQ inverse EOTF: R'G'B', PQ, BT.2020 primaries, full range; tone-mapped from there
///    like any PQ picture.
///
/// Every step works on one pixel alone, so it can run after the picture is scaled to the size
/// asked for (`DolbyVisionConverter`). A value, made once per frame's metadata.
struct DolbyVisionReshaper {
    /// For each component, its pieces' `DolbyVisionMetadata.termCount` coefficients, one piece after
    /// another; pieces `0..<piecesPerComponent`, unused ones zero.
    private let coefficients: [Float]
    /// For each component, the lower pivots of pieces 1…: a value at or above `bounds[c][k]`
    /// takes piece `k + 1` or later. Unused entries are infinite.
    private let bounds: [Float]
    private let lowest: [Float]
    private let highest: [Float]
    private let nonlinear: [Float]
    private let offset: [Float]
    /// `lmsToRGB × rgb_to_lms_matrix`, row by row.
    private let linear: [Float]
    /// The PQ curves, sampled (`PerceptualQuantizer.interpolate`).
    private let toLinear = PerceptualQuantizer.linearSamples
    private let toSignal = PerceptualQuantizer.signalSamples

    private static let piecesPerComponent = 8

    /// The inverse of BT.2020 RGB to Hunt-Pointer-Estevez LMS (ITU-R BT.2100's LMS without its
    /// crosstalk), libplacebo's `dovi_lms2rgb`.
    static let lmsToRGB: [Double] = [
        3.06441879, -2.16597676, 0.10155818,
        -0.65612108, 1.78554118, -0.12943749,
        0.01736321, -0.04725154, 1.03004253,
    ]

    init(_ metadata: DolbyVisionMetadata) {
        let terms = DolbyVisionMetadata.termCount, pieces = Self.piecesPerComponent
        var coefficients = [Float](repeating: 0, count: 3 * pieces * terms)
        var bounds = [Float](repeating: .infinity, count: 3 * (pieces - 1))
        var lowest: [Float] = [], highest: [Float] = []
        for (c, curve) in metadata.curves.prefix(3).enumerated() {
            for (k, piece) in curve.pieces.prefix(pieces).enumerated() {
                for (j, value) in piece.prefix(terms).enumerated() { coefficients[(c * pieces + k) * terms + j] = value }
            }
            for (k, pivot) in curve.pivots.dropFirst().dropLast().prefix(pieces - 1).enumerated() {
                bounds[c * (pieces - 1) + k] = pivot
            }
            lowest.append(curve.pivots.first ?? 0)
            highest.append(curve.pivots.last ?? 1)
        }
        self.coefficients = coefficients
        self.bounds = bounds
        self.lowest = lowest
        self.highest = highest
        nonlinear = metadata.nonlinear
        offset = metadata.offset
        var product = [Float](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += Self.lmsToRGB[3 * row + k] * Double(metadata.linear[3 * k + column]) }
                product[3 * row + column] = Float(sum)
            }
        }
        linear = product
    }

    /// The PQ-coded BT.2020 R'G'B' (each 0 to 1) of one pixel of the base layer, whose
    /// components are 0 to 1 (`code / (2^depth - 1)`).
    func rgb(_ i: Float, _ p: Float, _ t: Float) -> (Float, Float, Float) {
        withTables { pixel(i, p, t, $0) }
    }

    /// The pointers the inner loop reads, valid inside `body`.
    private struct Tables {
        var coefficients, bounds, toLinear, toSignal: UnsafePointer<Float>
    }

    private func withTables<R>(_ body: (Tables) -> R) -> R {
        coefficients.withUnsafeBufferPointer { c in
            bounds.withUnsafeBufferPointer { b in
                toLinear.withUnsafeBufferPointer { l in
                    toSignal.withUnsafeBufferPointer { s in
                        body(Tables(coefficients: c.baseAddress!, bounds: b.baseAddress!, toLinear: l.baseAddress!,
                                    toSignal: s.baseAddress!))
                    }
                }
            }
        }
    }

    /// Reshapes `count` pixels of 16-bit planes, whose values times `scale` are the base layer's
    /// (0 to 1), into 16-bit R'G'B' planes (0 to 65535).
    func run(y: UnsafePointer<UInt16>, cb: UnsafePointer<UInt16>, cr: UnsafePointer<UInt16>, count: Int, scale: Float,
             red: UnsafeMutablePointer<UInt16>, green: UnsafeMutablePointer<UInt16>, blue: UnsafeMutablePointer<UInt16>) {
        withTables { tables in
            for x in 0..<count {
                let (r, g, b) = pixel(Float(y[x]) * scale, Float(cb[x]) * scale, Float(cr[x]) * scale, tables)
                red[x] = UInt16(r * 65535 + 0.5)
                green[x] = UInt16(g * 65535 + 0.5)
                blue[x] = UInt16(b * 65535 + 0.5)
            }
        }
    }

    @inline(__always)
    private func pixel(_ i: Float, _ p: Float, _ t: Float, _ tables: Tables) -> (Float, Float, Float) {
        let s0 = min(max(i, 0), 1), s1 = min(max(p, 0), 1), s2 = min(max(t, 0), 1)
        let x01 = s0 * s1, x02 = s0 * s2, x12 = s1 * s2, x012 = x01 * s2
        let c = tables.coefficients, b = tables.bounds
        let ipt = (reshape(0, s0, s0, s1, s2, x01, x02, x12, x012, c, b),
                   reshape(1, s1, s0, s1, s2, x01, x02, x12, x012, c, b),
                   reshape(2, s2, s0, s1, s2, x01, x02, x12, x012, c, b))
        let n = nonlinear, o = offset
        let v0 = ipt.0 - o[0], v1 = ipt.1 - o[1], v2 = ipt.2 - o[2]
        func linear(_ signal: Float) -> Float { PerceptualQuantizer.interpolate(tables.toLinear, signal) }
        func signal(_ linear: Float) -> Float {
            PerceptualQuantizer.interpolate(tables.toSignal, max(linear, 0).squareRoot().squareRoot())
        }
        let l = linear(n[0] * v0 + n[1] * v1 + n[2] * v2)
        let m = linear(n[3] * v0 + n[4] * v1 + n[5] * v2)
        let s = linear(n[6] * v0 + n[7] * v1 + n[8] * v2)
        let k = self.linear
        return (signal(k[0] * l + k[1] * m + k[2] * s), signal(k[3] * l + k[4] * m + k[5] * s),
                signal(k[6] * l + k[7] * m + k[8] * s))
    }

    /// Component `component`'s reshaped value: the piece `own` falls in, summed over the terms
    /// 1; s0, s1, s2, s0·s1, s0·s2, s1·s2, s0·s1·s2; their squares; their cubes.
    @inline(__always)
    private func reshape(_ component: Int, _ own: Float, _ s0: Float, _ s1: Float, _ s2: Float, _ x01: Float,
                         _ x02: Float, _ x12: Float, _ x012: Float, _ c: UnsafePointer<Float>,
                         _ b: UnsafePointer<Float>) -> Float {
        let pieces = Self.piecesPerComponent
        var piece = 0
        let bound = b + component * (pieces - 1)
        while piece < pieces - 1, own >= bound[piece] { piece += 1 }
        let k = c + (component * pieces + piece) * DolbyVisionMetadata.termCount
        var sum = k[0] + k[1] * s0 + k[2] * s1 + k[3] * s2 + k[4] * x01 + k[5] * x02 + k[6] * x12 + k[7] * x012
        let q0 = s0 * s0, q1 = s1 * s1, q2 = s2 * s2, q01 = x01 * x01, q02 = x02 * x02, q12 = x12 * x12
        let q012 = x012 * x012
        sum += k[8] * q0 + k[9] * q1 + k[10] * q2 + k[11] * q01 + k[12] * q02 + k[13] * q12 + k[14] * q012
        sum += k[15] * q0 * s0 + k[16] * q1 * s1 + k[17] * q2 * s2 + k[18] * q01 * x01 + k[19] * q02 * x02
            + k[20] * q12 * x12 + k[21] * q012 * x012
        return min(max(sum, lowest[component]), highest[component])
    }
}
