/// VobSub's two files made from DVD subtitle packets (SPUs), byte for byte as mkvextract writes
/// them (mkvtoolnix `src/extract/xtr_vobsub.cpp`, `src/common/spu.cpp`), the pair players and
/// servers read beside a film: `.sub`, the SPUs in MPEG-2 program stream packs of 2048 bytes
/// (private stream 1, substream 0x20), and `.idx`, the text index of their times and positions.
///
/// Pure functions of the packets' bytes and times; `VobSubSink` writes their results.
enum VobSubPacking {
    /// The first line of every index file.
    static let indexHeaderLine = "# VobSub index file, v7 (do not modify this line!)\n"
    /// A program stream pack: every packet of the `.sub` file fills one, with padding.
    static let packBytes = 2048
    /// The pack header: start code, SCR, mux rate, stuffing length.
    static let packHeaderBytes = 14
    /// The first PES header of an SPU: start code, stream id, length, flags, header length, PTS,
    /// and the substream id.
    static let firstPESHeaderBytes = 15
    /// The PES header of an SPU's following packets: no PTS.
    static let nextPESHeaderBytes = 10

    /// The `.sub` bytes of one SPU presented at `nanoseconds`: one or more 2048-byte packs,
    /// the last padded with stuffing bytes in its PES header (fewer than 6 to pad) or a padding
    /// packet (stream 0xBE).
    static func packs(of spu: [UInt8], nanoseconds: Int64, substream: UInt8 = 0x20) -> [UInt8] {
        let clock = UInt64(max(0, nanoseconds)) &* 9 / 100_000  // 90 kHz
        let pack = packHeader(clock)
        // Up to the PES header's length; then its flags and header length (5 with the PTS, which
        // only the first packet of an SPU carries), the PTS, and the substream id before the data.
        let firstPES: [UInt8] = [0, 0, 1, 0xBD, 0, 0, 0x81, 0x80, 5] + presentationStamp(clock)
        let nextPES: [UInt8] = [0, 0, 1, 0xBD, 0, 0, 0x81, 0, 0]
        var out: [UInt8] = []
        out.reserveCapacity((spu.count / (packBytes - 40) + 1) * packBytes)

        var rest = spu[...]
        var padding = 0
        var isFirst = true
        repeat {
            var pes = isFirst ? firstPES : nextPES
            let headerBytes = isFirst ? firstPESHeaderBytes : nextPESHeaderBytes
            padding = (packBytes - (rest.count + packHeaderBytes + headerBytes)) & (packBytes - 1)
            let taken = min(rest.count, packBytes - packHeaderBytes - headerBytes)
            // The PES length counts what follows its field: the header's last bytes and the data.
            var length = taken + headerBytes - 6
            // The last packet pads with stuffing bytes in its PES header when fewer than 6 remain.
            let stuffed = padding < 6 && taken == rest.count
            if stuffed {
                pes[8] &+= UInt8(padding)
                length += padding
            }
            pes[4] = UInt8(truncatingIfNeeded: length >> 8)
            pes[5] = UInt8(truncatingIfNeeded: length)
            out += pack + pes
            if stuffed && padding > 0 { out += [UInt8](repeating: 0xFF, count: padding) }
            out.append(substream)
            out += rest.prefix(taken)
            rest = rest.dropFirst(taken)
            isFirst = false
        } while !rest.isEmpty
        if padding >= 6 {
            let stuffing = padding - 6
            out += [0, 0, 1, 0xBE, UInt8(truncatingIfNeeded: stuffing >> 8), UInt8(truncatingIfNeeded: stuffing)]
            out += [UInt8](repeating: 0xFF, count: stuffing)
        }
        return out
    }

    /// The MPEG-2 pack header at 90 kHz `clock`, its mux rate and stuffing as mkvextract's.
    private static func packHeader(_ c: UInt64) -> [UInt8] {
        func byte(_ value: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value) }
        return [0, 0, 1, 0xBA,
                0x40 | byte((c >> 27) & 0x38) | 0x04 | byte((c >> 28) & 0x03),
                byte(c >> 20),
                byte((c >> 12) & 0xF8) | 0x04 | byte((c >> 13) & 0x03),
                byte(c >> 5),
                byte((c << 3) & 0xF8) | 0x04,
                1,
                0x01, 0x89, 0xC3,
                0xF8]
    }

    /// The 5-byte PTS field of a PES header (marker bits set, '0010' prefix).
    private static func presentationStamp(_ c: UInt64) -> [UInt8] {
        func byte(_ value: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value) }
        return [0x20 | byte((c >> 29) & 0x0E) | 0x01, byte(c >> 22), byte((c >> 14) & 0xFE) | 0x01,
                byte(c >> 7), byte(c << 1) | 0x01]
    }

    // MARK: - The SPU's own display time

    /// `spu` with its stop-display date set to `nanoseconds` after its start, where the date it
    /// has differs from that by a millisecond or more (mkvextract's `fix_spu_duration`: the
    /// container's duration wins); as it is when it has no stop date or `nanoseconds` is nil.
    static func withDuration(_ spu: [UInt8], nanoseconds: Int64?) -> [UInt8] {
        guard let nanoseconds, nanoseconds > 0, let position = stopDatePosition(in: spu),
              position + 2 <= spu.count else { return spu }
        let date = Int64(spu[position]) << 8 | Int64(spu[position + 1])
        let current = date * 1024 * 100_000 / 9
        guard abs(current - nanoseconds) >= 1_000_000 else { return spu }
        let updated = nanoseconds * 9 / 100_000 / 1024
        var result = spu
        result[position] = UInt8(truncatingIfNeeded: updated >> 8)
        result[position + 1] = UInt8(truncatingIfNeeded: updated)
        return result
    }

    /// Where the date of the control sequence holding the stop-display command (0x02) is, or nil
    /// when there is none or the SPU is broken. Control sequences: a 16-bit date, the 16-bit
    /// offset of the next sequence (its own offset for the last), then commands up to 0xFF.
    static func stopDatePosition(in spu: [UInt8]) -> Int? {
        guard spu.count >= 4 else { return nil }
        func word(_ at: Int) -> Int? { at + 1 < spu.count ? Int(spu[at]) << 8 | Int(spu[at + 1]) : nil }
        var start = 0
        guard var next = word(2) else { return nil }
        while start != next && next < spu.count {
            start = next
            guard let following = word(start + 2), following >= start else { return nil }
            next = following
            var offset = start + 4
            commands: while offset < spu.count {
                let command = spu[offset]
                offset += 1
                switch command {
                case 0xFF: break commands
                case 0x00, 0x01: continue
                case 0x02: return start
                case 0x03, 0x04: offset += 2
                case 0x05: offset += 6
                case 0x06: offset += 4
                default: break commands  // unknown: on to the next sequence
                }
            }
        }
        return nil
    }

    // MARK: - The index

    /// The `.idx` text: the header (`extradata`, the source's CodecPrivate: size, palette, …,
    /// trailing NULs and surrounding white space dropped, the first line added when missing),
    /// `langidx: 0` when the header has none, then one track: `id: <language>, index: 0` and a
    /// `timestamp: HH:MM:SS:mmm, filepos: <9 hex digits>` line per SPU.
    static func index(extradata: [UInt8], language: String, entries: [(nanoseconds: Int64, position: Int64)]) -> String {
        var bytes = extradata
        while bytes.last == 0 { bytes.removeLast() }
        let header = String(decoding: bytes, as: UTF8.self).trimmingWhiteSpace
        var text = header.lowercased().hasPrefix(indexHeaderLine.lowercased()) ? "" : indexHeaderLine
        text += header + "\n"
        if !header.contains("langidx:") { text += "langidx: 0\n" }
        text += "\nid: \(language), index: 0\n"
        for entry in entries {
            let ms = max(0, entry.nanoseconds) / 1_000_000
            let clock = [ms / 3_600_000 % 60, ms / 60_000 % 60, ms / 1000 % 60].map { twoDigits($0) }.joined(separator: ":")
            let milliseconds = String(ms % 1000)
            let high = String(UInt64(entry.position) >> 32, radix: 16)
            let low = String(UInt64(entry.position) & 0xFFFF_FFFF, radix: 16)
            text += "timestamp: \(clock):\(String(repeating: "0", count: 3 - milliseconds.count))\(milliseconds), "
                + "filepos: \(high)\(String(repeating: "0", count: 8 - low.count))\(low)\n"
        }
        return text
    }

    /// The language an index names a track by, as mkvextract writes it: the ISO 639-1 code where
    /// the language has one, else its code (`und` for none).
    static func indexLanguage(_ code: String) -> String {
        guard let language = LanguageCode(code) else { return "und" }
        return language.iso639_1 ?? language.language
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension String {
    /// Without white space (spaces, tabs, line ends, vertical tabs, form feeds) at either end.
    var trimmingWhiteSpace: String {
        let isSpace: (Character) -> Bool = { " \t\n\r\u{0B}\u{0C}".contains($0) }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
