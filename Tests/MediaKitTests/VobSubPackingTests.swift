@testable import MediaKit
import Testing

/// VobSub's packing rules on made-up packets, read back as MPEG-2 program stream packs (each
/// 2048 bytes: a pack header, a private stream 1 PES packet, padding), and the index text.
@Suite struct VobSubPackingTests {
    /// The packs of `bytes`: for each, the SPU bytes its PES packet carries (after the substream
    /// id) and whether its PES header has a PTS.
    static func payloads(_ bytes: [UInt8]) -> [(data: [UInt8], hasPTS: Bool)] {
        var result: [(data: [UInt8], hasPTS: Bool)] = []
        var at = 0
        while at < bytes.count {
            let pack = Array(bytes[at..<at + 2048])
            #expect(pack[0..<4] == [0, 0, 1, 0xBA] && pack[13] == 0xF8)
            #expect(pack[14..<18] == [0, 0, 1, 0xBD])
            let length = Int(pack[18]) << 8 | Int(pack[19])
            let headerLength = Int(pack[22])
            let payloadStart = 23 + headerLength
            #expect(pack[payloadStart] == 0x20)
            let end = 20 + length
            result.append((Array(pack[(payloadStart + 1)..<end]), pack[21] & 0x80 != 0))
            if end < 2048 {
                #expect(pack[end..<end + 4] == [0, 0, 1, 0xBE])
                #expect(end + 6 + (Int(pack[end + 4]) << 8 | Int(pack[end + 5])) == 2048)
            }
            at += 2048
        }
        return result
    }

    @Test func packSizesAndPadding() {
        for size in [4, 100, 2013, 2014, 2018, 2019, 2020, 2048, 4000, 4038, 4039, 10_000] {
            let spu = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
            let packed = VobSubPacking.packs(of: spu, nanoseconds: 1_500_000_000)
            #expect(packed.count % 2048 == 0, "\(size)")
            let payloads = Self.payloads(packed)
            #expect(payloads.flatMap(\.data) == spu, "\(size)")
            #expect(payloads.map(\.hasPTS) == [true] + Array(repeating: false, count: payloads.count - 1), "\(size)")
        }
    }

    /// The PTS (90 kHz) in the first PES header, and the SCR in the pack header.
    @Test func timeStamps() {
        let packed = VobSubPacking.packs(of: [1, 2, 3, 4], nanoseconds: 61_234_000_000)
        let pts = packed[23..<28]
        let clock = (UInt64(pts[23] >> 1 & 0x07) << 30) | (UInt64(pts[24]) << 22) | (UInt64(pts[25] >> 1) << 15)
            | (UInt64(pts[26]) << 7) | UInt64(pts[27] >> 1)
        #expect(clock == 61_234 * 90)
    }

    /// The stop-display date follows the container's duration when it differs by 1 ms or more.
    @Test func stopDate() {
        // Control sequence at 4: date 0, next = itself; start display, stop? no: date at 8.
        // SPU: size, control offset 4; first sequence (date 0) starts display and points to the
        // second (at 9), whose date 0x00AF stops it.
        let spu: [UInt8] = [0, 14, 0, 4, 0, 0, 0, 9, 0x01, 0x00, 0xAF, 0, 9, 0x02, 0xFF]
        #expect(VobSubPacking.stopDatePosition(in: spu) == 9)
        let current = Int64(0xAF) * 1024 * 100_000 / 9
        #expect(VobSubPacking.withDuration(spu, nanoseconds: current + 999_999) == spu)
        let longer = VobSubPacking.withDuration(spu, nanoseconds: 3_000_000_000)
        #expect(longer[9..<11] == [0x01, 0x07] && longer.count == spu.count)  // 3 s × 90000 / 1024 = 263
        #expect(VobSubPacking.withDuration(spu, nanoseconds: nil) == spu)
        #expect(VobSubPacking.stopDatePosition(in: [0, 8, 0, 4, 0, 0, 0, 4, 0x01, 0xFF]) == nil)
        #expect(VobSubPacking.stopDatePosition(in: [0, 8, 0, 200]) == nil)
        #expect(VobSubPacking.stopDatePosition(in: [0, 8, 0, 4, 0, 0, 0, 2, 0x02]) == nil)  // goes back: broken
    }

    @Test func indexText() {
        let header = Array("size: 720x576\npalette: 000000, ffffff\n\n".utf8) + [0, 0]
        let text = VobSubPacking.index(extradata: header, language: "de",
                                       entries: [(1_000_000_000, 0), (3_723_004_000_000, 0x1_2345_6800)])
        #expect(text == """
            # VobSub index file, v7 (do not modify this line!)
            size: 720x576
            palette: 000000, ffffff
            langidx: 0

            id: de, index: 0
            timestamp: 00:00:01:000, filepos: 000000000
            timestamp: 01:02:03:004, filepos: 123456800

            """)
        let kept = VobSubPacking.index(extradata: Array("# VobSub index file, v7 (do not modify this line!)\nsize: 1x1\nlangidx: 3\n".utf8),
                                       language: "und", entries: [])
        #expect(kept == "# VobSub index file, v7 (do not modify this line!)\nsize: 1x1\nlangidx: 3\n\nid: und, index: 0\n")
        #expect(["ger", "deu", "de", "pt-BR", "fil", "und", "", "zxx"].map(VobSubPacking.indexLanguage)
                == ["de", "de", "de", "pt", "fil", "und", "und", "zxx"])
    }
}
