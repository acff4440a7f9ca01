/// A Dolby Vision RPU (reference processing unit) of profile 5, written bit for bit, for test clips
/// made at test time: a base layer of IPTPQc2 values with this RPU in every access unit.
///
/// The syntax is that of `rpu_data()` as libavcodec's parser (libavcodec/dovi_rpu.c,
/// `ff_dovi_rpu_parse`) and quietvoid's dovi_tool (its writer) read and write it: the 0x19
/// prefix; the header (`rpu_type` 2, `rpu_format` 18, VDR sequence info: fixed-point
/// coefficients over 2^23, a full-range 10-bit base layer, a 12-bit VDR, no residual); one
/// mapping (`vdr_rpu_id` 0): each component's pivots and pieces, polynomial or MMR; the colour
/// metadata (`vdr_dm_data_payload`: the IPT to LMS matrices, the signal's description, the
/// mastering display's black and peak as 12-bit PQ codes) with no extension block; zero bits to a
/// byte; the CRC-32 (MPEG-2) of the bytes after the prefix; 0x80.
public struct DolbyVisionRPU: Sendable {
    /// One piece of a component's curve, over the base layer's components s0, s1, s2 (0 to 1).
    public enum Piece: Sendable {
        /// c0 + c1·x + c2·x² (order 1 with two coefficients) of the component's own value x.
        case polynomial([Double])
        /// Multivariate multiple regression: the constant, then per order 1 to 3 seven
        /// coefficients of s0, s1, s2, s0·s1, s0·s2, s1·s2, s0·s1·s2 raised to that order.
        case mmr(constant: Double, orders: [[Double]])
    }

    /// A component's pivots (base layer codes, 0 to 1023, ascending) and the pieces between them.
    public struct Curve: Sendable {
        public var pivots: [Int]
        public var pieces: [Piece]

        public init(pivots: [Int], pieces: [Piece]) {
            precondition(pieces.count == pivots.count - 1 && (2...9).contains(pivots.count), "a piece between pivots")
            self.pivots = pivots
            self.pieces = pieces
        }
    }

    /// The curves of I, P and T.
    public var curves: [Curve]
    /// `ycc_to_rgb_matrix` over 2^13, `ycc_to_rgb_offset` over 2^28, `rgb_to_lms_matrix` over
    /// 2^14: the standard profile 5 values (dovi_tool's, libplacebo's default).
    public var nonlinear: [Int] = [8192, 799, 1681, 8192, -933, 1091, 8192, 267, -5545]
    public var offsets: [UInt32] = [0, 1 << 27, 1 << 27]
    public var linear: [Int] = [17081, -349, -349, -349, 17081, -349, -349, -349, 17081]
    /// The mastering display's black and peak, 12-bit PQ codes (62: 0.005 cd/m², 3079: 1,000).
    public var sourceMinPQ = 62
    public var sourceMaxPQ = 3079

    /// Bits of the fractional part of every coefficient.
    public static let denominatorBits = 23
    static let blBits = 10

    public init(curves: [Curve]) {
        precondition(curves.count == 3, "three components")
        self.curves = curves
    }

    /// `rpu_data()`: the prefix 0x19 to the final 0x80, before emulation prevention.
    public func payload() -> [UInt8] {
        var w = BitWriter()
        w.bits(0x19, 8)
        // rpu_data_header(): type 2, format 18, profile 0 level 0, with sequence info.
        w.bits(2, 6); w.bits(18, 11); w.bits(0, 4); w.bits(0, 4); w.bit(true)
        w.bit(false); w.bits(0, 2); w.unsigned(Self.denominatorBits)  // explicit filter, fixed point, denominator
        w.bits(1, 2); w.bit(true)  // vdr_rpu_normalized_idc, bl_video_full_range_flag
        w.unsigned(Self.blBits - 8); w.unsigned(Self.blBits - 8); w.unsigned(12 - 8)  // BL, EL, VDR bit depths
        w.bit(false); w.bits(0, 3); w.bit(false); w.bit(true)  // resampling, reserved, EL resampling, no residual
        w.bit(true); w.bit(false)  // vdr_dm_metadata_present_flag, use_prev_vdr_rpu_flag
        w.unsigned(0); w.unsigned(0); w.unsigned(0)  // vdr_rpu_id, mapping_color_space, mapping_chroma_format_idc
        for curve in curves {
            w.unsigned(curve.pivots.count - 2)
            var previous = 0
            for pivot in curve.pivots {
                w.bits(UInt64(pivot - previous), Self.blBits)  // each pivot as its distance from the last
                previous = pivot
            }
        }
        w.unsigned(0); w.unsigned(0)  // one partition across and down
        // vdr_rpu_data_payload(): the pieces.
        for curve in curves {
            for piece in curve.pieces {
                switch piece {
                case .polynomial(let c):
                    w.unsigned(0); w.unsigned(c.count - 2)  // mapping_idc, poly_order_minus1
                    if c.count == 2 { w.bit(false) }  // linear_interp_flag
                    for value in c { w.coefficient(value) }
                case .mmr(let constant, let orders):
                    w.unsigned(1); w.bits(UInt64(orders.count - 1), 2)
                    w.coefficient(constant)
                    for order in orders { for value in order { w.coefficient(value) } }
                }
            }
        }
        // vdr_dm_data_payload()
        w.unsigned(0); w.unsigned(0); w.unsigned(1)  // affected and current dm id, scene_refresh_flag
        for value in nonlinear { w.bits(UInt64(UInt16(truncatingIfNeeded: value)), 16) }
        for value in offsets { w.bits(UInt64(value), 32) }
        for value in linear { w.bits(UInt64(UInt16(truncatingIfNeeded: value)), 16) }
        w.bits(65535, 16); w.bits(0, 16); w.bits(0, 16); w.bits(0, 32)  // signal_eotf and its parameters
        w.bits(12, 5); w.bits(2, 2); w.bits(0, 2); w.bits(1, 2)  // bit depth, IPT, 4:2:0, full range
        w.bits(UInt64(sourceMinPQ), 12); w.bits(UInt64(sourceMaxPQ), 12); w.bits(42, 10)  // source_diagonal
        w.unsigned(0)  // num_ext_blocks
        w.alignWithZeros()
        var bytes = w.bytes
        let crc = Self.crc32(bytes.dropFirst())
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF), 0x80]
        return bytes
    }

    /// The HEVC NAL unit carrying the RPU, without its start code: the header of type 62
    /// (UNSPEC62, layer 0, temporal id 0: `7C 01`) and the payload with emulation prevention
    /// (a 03 after two zero bytes where the next byte is 0 to 3).
    public func nalUnit() -> [UInt8] {
        var out: [UInt8] = [0x7C, 0x01], zeros = 0
        for byte in payload() {
            if zeros >= 2 && byte <= 3 {
                out.append(3)
                zeros = 0
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// CRC-32/MPEG-2: polynomial 0x04C11DB7, initial value all ones, no reflection, no final xor.
    static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}

/// Bits, most significant first, as H.265 writes them: fixed-width fields, Exp-Golomb codes, and
/// the RPU's fixed-point coefficients.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 0  // bits of the last byte in use, 0 when it is full

    mutating func bit(_ value: Bool) {
        if used == 0 { bytes.append(0) }
        if value { bytes[bytes.count - 1] |= 0x80 >> UInt8(used) }
        used = (used + 1) % 8
    }

    mutating func bits(_ value: UInt64, _ count: Int) {
        precondition(count == 64 || value >> UInt64(count) == 0, "\(value) does not fit in \(count) bits")
        for i in stride(from: count - 1, through: 0, by: -1) { bit(value >> UInt64(i) & 1 == 1) }
    }

    /// ue(v): Exp-Golomb.
    mutating func unsigned(_ value: Int) {
        let coded = UInt64(value + 1), width = 64 - coded.leadingZeroBitCount
        bits(0, width - 1)
        bits(coded, width)
    }

    /// se(v): 1, -1, 2, -2, … as 1, 2, 3, 4, …
    mutating func signed(_ value: Int) {
        unsigned(value > 0 ? 2 * value - 1 : -2 * value)
    }

    /// A fixed-point coefficient as libavcodec's `get_se_coef` reads it: the integer part
    /// (rounded down) as se(v), then the fraction in `denominatorBits` bits.
    mutating func coefficient(_ value: Double) {
        let d = DolbyVisionRPU.denominatorBits
        let fixed = Int((value * Double(1 << d)).rounded())
        let whole = fixed >> d  // rounds towards minus infinity
        signed(whole)
        bits(UInt64(fixed - whole << d), d)
    }

    mutating func alignWithZeros() {
        while used != 0 { bit(false) }
    }
}
