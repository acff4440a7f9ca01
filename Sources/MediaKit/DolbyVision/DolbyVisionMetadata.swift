import CAV

/// What one frame's Dolby Vision RPU says, as libavcodec parsed it: how the base layer's three
/// components are reshaped into IPT (one curve each), and the matrices from IPT to RGB. Plain
/// values, normalised as libplacebo's `pl_map_dovi_metadata` does: pivots over the base layer's
/// largest code, coefficients over `2^coef_log2_denom`, rationals as numbers.
///
/// The corresponding C type is `AVDOVIMetadata` (libavutil/dovi_meta.h), the frame side data
/// `AV_FRAME_DATA_DOVI_METADATA` that libavcodec's HEVC decoder attaches to each frame whose
/// access unit ends in an RPU (a NAL unit of type 62).
struct DolbyVisionMetadata: Equatable {
    /// One component's reshaping: the pieces between consecutive pivots. Each piece is a sum of
    /// `DolbyVisionMetadata.termCount` terms, a constant and the products of the three base layer
    /// components (`DolbyVisionReshaper` lists them). libavcodec's two kinds of piece are both such
    /// sums: a polynomial in the component's own value (order 1 or 2) sets the constant and the
    /// component's first and second powers; an MMR piece (multivariate multiple regression, order
    /// 1 to 3) sets a constant and 7 terms per order.
    struct Curve: Equatable {
        /// 2 to 9 pivots, ascending, on the base layer's scale (0 to 1). A value is reshaped by
        /// the piece whose lower pivot it reaches, and the result kept between the first and last.
        var pivots: [Float]
        /// `pivots.count - 1` pieces of `termCount` coefficients each.
        var pieces: [[Float]]

        /// The identity: one piece, the component itself.
        static func identity(component: Int) -> Curve {
            var piece = [Float](repeating: 0, count: termCount)
            piece[1 + component] = 1
            return Curve(pivots: [0, 1], pieces: [piece])
        }
    }

    /// The curves of I, P and T (the base layer's Y, Cb and Cr planes).
    var curves: [Curve]
    /// `ycc_to_rgb_matrix`, row by row: reshaped IPT, less `offset`, to PQ-coded L'M'S'.
    var nonlinear: [Float]
    /// `ycc_to_rgb_offset`: the neutral values of the reshaped components.
    var offset: [Float]
    /// `rgb_to_lms_matrix`, row by row: applied to linear LMS before the fixed LMS to BT.2020 RGB
    /// matrix (libavutil's note on the field: its output feeds that matrix).
    var linear: [Float]
    /// `source_min_pq` and `source_max_pq`: the mastering display's black and peak, 12-bit PQ
    /// codes (0 to 4095); a peak of 0 says nothing.
    var sourceMinPQ: Int
    var sourceMaxPQ: Int

    /// A constant and 7 products for each order 1 to 3.
    static let termCount = 22

    /// What a profile 5 frame without an RPU is taken to have: no reshaping and the standard
    /// IPTPQc2 matrices (those profile 5 encoders write: ITU-R BT.2100's IPT with 2% crosstalk).
    static let profile5 = DolbyVisionMetadata(
        curves: (0..<3).map { Curve.identity(component: $0) },
        nonlinear: [8192, 799, 1681, 8192, -933, 1091, 8192, 267, -5545].map { Float($0) / 8192 },
        offset: [0, 0.5, 0.5],
        linear: [17081, -349, -349, -349, 17081, -349, -349, -349, 17081].map { Float($0) / 16384 },
        sourceMinPQ: 0, sourceMaxPQ: 0)

    /// The RPU libavcodec attached to `frame`, or nil where it attached none (no RPU in the
    /// access unit, or one it could not parse). The corresponding C function is
    /// `av_frame_get_side_data` (`AV_FRAME_DATA_DOVI_METADATA`).
    init?(_ frame: UnsafePointer<AVFrame>) {
        guard let side = av_frame_get_side_data(frame, AV_FRAME_DATA_DOVI_METADATA),
              side.pointee.size >= MemoryLayout<AVDOVIMetadata>.size, let data = side.pointee.data else { return nil }
        let metadata = UnsafeRawPointer(data).assumingMemoryBound(to: AVDOVIMetadata.self)
        guard let header = av_dovi_get_header(metadata)?.pointee, let mapping = av_dovi_get_mapping(metadata),
              let color = av_dovi_get_color(metadata)?.pointee else { return nil }
        let depth = Int(header.bl_bit_depth)
        guard (8...16).contains(depth), header.coef_log2_denom <= 32 else { return nil }
        let pivotScale = 1 / Float((1 << depth) - 1)
        let coefficientScale = 1 / Float(1 << Int(header.coef_log2_denom))
        var curves: [Curve] = []
        for component in 0..<3 {
            guard let curve = Self.curve(mapping, component: component, pivotScale: pivotScale,
                                         coefficientScale: coefficientScale) else { return nil }
            curves.append(curve)
        }
        self.curves = curves
        nonlinear = Self.numbers(color.ycc_to_rgb_matrix)
        offset = Self.numbers(color.ycc_to_rgb_offset)
        linear = Self.numbers(color.rgb_to_lms_matrix)
        sourceMinPQ = Int(color.source_min_pq)
        sourceMaxPQ = Int(color.source_max_pq)
    }

    init(curves: [Curve], nonlinear: [Float], offset: [Float], linear: [Float], sourceMinPQ: Int, sourceMaxPQ: Int) {
        self.curves = curves
        self.nonlinear = nonlinear
        self.offset = offset
        self.linear = linear
        self.sourceMinPQ = sourceMinPQ
        self.sourceMaxPQ = sourceMaxPQ
    }

    /// The mastering display's peak in cd/m² (nits), where the RPU says it.
    var peakNits: Double? {
        sourceMaxPQ > 0 ? PerceptualQuantizer.nits(Double(sourceMaxPQ) / 4095) : nil
    }

    /// The mastering display's black in cd/m².
    var blackNits: Double {
        PerceptualQuantizer.nits(Double(sourceMinPQ) / 4095)
    }

    /// Component `component`'s curve, nil where libavcodec's values are out of their range.
    private static func curve(_ mapping: UnsafeMutablePointer<AVDOVIDataMapping>, component: Int,
                              pivotScale: Float, coefficientScale: Float) -> Curve? {
        withUnsafePointer(to: &mapping.pointee.curves) { curves in
            curves.withMemoryRebound(to: AVDOVIReshapingCurve.self, capacity: 3) { curves -> Curve? in
                var c = curves[component]
                let count = Int(c.num_pivots)
                guard (2...Int(AV_DOVI_MAX_PIECES) + 1).contains(count) else { return nil }
                let pivots = withUnsafeBytes(of: &c.pivots) { Array($0.bindMemory(to: UInt16.self).prefix(count)) }
                let methods = withUnsafeBytes(of: &c.mapping_idc) { Array($0.bindMemory(to: AVDOVIMappingMethod.self)) }
                let polyOrders = withUnsafeBytes(of: &c.poly_order) { Array($0.bindMemory(to: UInt8.self)) }
                let poly = withUnsafeBytes(of: &c.poly_coef) { Array($0.bindMemory(to: Int64.self)) }  // [8][3]
                let mmrOrders = withUnsafeBytes(of: &c.mmr_order) { Array($0.bindMemory(to: UInt8.self)) }
                let mmrConstants = withUnsafeBytes(of: &c.mmr_constant) { Array($0.bindMemory(to: Int64.self)) }
                let mmr = withUnsafeBytes(of: &c.mmr_coef) { Array($0.bindMemory(to: Int64.self)) }  // [8][3][7]
                var pieces: [[Float]] = []
                for i in 0..<(count - 1) {
                    var piece = [Float](repeating: 0, count: termCount)
                    switch methods[i] {
                    case AV_DOVI_MAPPING_POLYNOMIAL:
                        let order = Int(polyOrders[i])
                        guard (1...2).contains(order) else { return nil }
                        piece[0] = Float(poly[3 * i]) * coefficientScale
                        piece[1 + component] = Float(poly[3 * i + 1]) * coefficientScale
                        if order == 2 { piece[8 + component] = Float(poly[3 * i + 2]) * coefficientScale }
                    case AV_DOVI_MAPPING_MMR:
                        let order = Int(mmrOrders[i])
                        guard (1...3).contains(order) else { return nil }
                        piece[0] = Float(mmrConstants[i]) * coefficientScale
                        for j in 0..<order {
                            for k in 0..<7 { piece[1 + 7 * j + k] = Float(mmr[21 * i + 7 * j + k]) * coefficientScale }
                        }
                    default:
                        return nil
                    }
                    pieces.append(piece)
                }
                return Curve(pivots: pivots.map { Float($0) * pivotScale }, pieces: pieces)
            }
        }
    }

    /// A tuple of `AVRational`s as numbers (0 for a zero denominator).
    private static func numbers<T>(_ tuple: T) -> [Float] {
        withUnsafeBytes(of: tuple) { raw in
            raw.bindMemory(to: AVRational.self).map { $0.den == 0 ? 0 : Float(Double($0.num) / Double($0.den)) }
        }
    }
}
