import Foundation

/// The maths of Dolby Vision profile 5 as the tests see it, written apart from MediaKit's
/// (`DolbyVisionReshaper`) in doubles: the RPU's curves (forward, and backward by search), and
/// the matrices between PQ BT.2020 R'G'B' and IPT.
public enum DolbyVisionModel {
    /// The PQ EOTF: linear light (0 to 1 of 10,000 cd/m²) of a signal.
    public static func linear(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(min(max(e, 0), 1), 1 / m2)
        return pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// The PQ inverse EOTF.
    public static func signal(_ y: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(y, 0), m1)
        return pow((c1 + c2 * p) / (1 + c3 * p), m2)
    }

    /// Hunt-Pointer-Estevez LMS (BT.2020 white, no crosstalk) to BT.2020 RGB, row by row: the
    /// matrix libplacebo puts after the RPU's `rgb_to_lms_matrix`.
    static let lmsToRGB: [Double] = [
        3.06441879, -2.16597676, 0.10155818,
        -0.65612108, 1.78554118, -0.12943749,
        0.01736321, -0.04725154, 1.03004253,
    ]

    /// Reshaped IPT of base layer values `s` (each 0 to 1) by `rpu`'s curves.
    public static func reshape(_ s: [Double], _ rpu: DolbyVisionRPU) -> [Double] {
        (0..<3).map { component(s, curve: rpu.curves[$0], own: $0) }
    }

    /// One component of `reshape`.
    static func component(_ s: [Double], curve: DolbyVisionRPU.Curve, own: Int) -> Double {
        let pivots = curve.pivots.map { Double($0) / 1023 }
        let x = min(max(s[own], 0), 1)
        var piece = 0
        while piece + 1 < curve.pieces.count, x >= pivots[piece + 1] { piece += 1 }
        let value: Double
        switch curve.pieces[piece] {
        case .polynomial(let c):
            value = c.enumerated().reduce(0) { $0 + $1.element * pow(x, Double($1.offset)) }
        case .mmr(let constant, let orders):
            let v = s.map { min(max($0, 0), 1) }
            let terms = [v[0], v[1], v[2], v[0] * v[1], v[0] * v[2], v[1] * v[2], v[0] * v[1] * v[2]]
            value = orders.enumerated().reduce(constant) { sum, order in
                sum + zip(order.element, terms).reduce(0) { $0 + $1.0 * pow($1.1, Double(order.offset + 1)) }
            }
        }
        return min(max(value, pivots.first!), pivots.last!)
    }

    /// PQ BT.2020 R'G'B' of reshaped IPT, by `rpu`'s matrices.
    public static func rgb(ipt: [Double], _ rpu: DolbyVisionRPU) -> [Double] {
        let nonlinear = rpu.nonlinear.map { Double($0) / 8192 }
        let offsets = rpu.offsets.map { Double($0) / Double(1 << 28) }
        let lms = multiply(nonlinear, zip(ipt, offsets).map { $0 - $1 }).map(linear)
        let rgb = multiply(multiply(lmsToRGB, matrix: rpu.linear.map { Double($0) / 16384 }), lms)
        return rgb.map { min(signal($0), 1) }
    }

    /// Reshaped IPT of PQ BT.2020 R'G'B': `rgb(ipt:)` backwards.
    public static func ipt(rgb: [Double], _ rpu: DolbyVisionRPU) -> [Double] {
        let toLMS = inverse(multiply(lmsToRGB, matrix: rpu.linear.map { Double($0) / 16384 }))
        let lms = multiply(toLMS, rgb.map(linear)).map(signal)
        let offsets = rpu.offsets.map { Double($0) / Double(1 << 28) }
        return zip(multiply(inverse(rpu.nonlinear.map { Double($0) / 8192 }), lms), offsets).map { $0 + $1 }
    }

    /// The 10-bit base layer code whose reshaped component `own` is nearest `target`, the other
    /// components as in `s`: a search that takes the curve to rise with the component's own value
    /// (true of the tests' curves).
    public static func code(for target: Double, own: Int, _ s: [Double], _ rpu: DolbyVisionRPU) -> Int {
        var low = 0, high = 1023, v = s
        func value(_ code: Int) -> Double {
            v[own] = Double(code) / 1023
            return component(v, curve: rpu.curves[own], own: own)
        }
        while low < high {
            let middle = (low + high) / 2
            if value(middle) < target { low = middle + 1 } else { high = middle }
        }
        return low > 0 && abs(value(low - 1) - target) <= abs(value(low) - target) ? low - 1 : low
    }

    static func multiply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { (r: Int) -> Double in m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2] }
    }

    static func multiply(_ a: [Double], matrix b: [Double]) -> [Double] {
        (0..<9).map { (i: Int) -> Double in
            let r = 3 * (i / 3), c = i % 3
            return a[r] * b[c] + a[r + 1] * b[3 + c] + a[r + 2] * b[6 + c]
        }
    }

    static func inverse(_ m: [Double]) -> [Double] {
        // The adjugate over the determinant: cofactor (r, c) of the transpose.
        func at(_ r: Int, _ c: Int) -> Double { m[3 * (r % 3) + c % 3] }
        var adjugate = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                let minor: Double = at(c + 1, r + 1) * at(c + 2, r + 2) - at(c + 1, r + 2) * at(c + 2, r + 1)
                adjugate[3 * r + c] = minor
            }
        }
        let det: Double = m[0] * adjugate[0] + m[1] * adjugate[3] + m[2] * adjugate[6]
        return adjugate.map { $0 / det }
    }
}
