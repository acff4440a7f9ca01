/// Access units of a raw HEVC stream (Annex B: NAL units after `00 00 01` start codes), for
/// adding a NAL unit at the end of each: where a Dolby Vision RPU goes (libavcodec takes an
/// access unit's last NAL unit of type 62 as its RPU).
public enum HEVCAccessUnits {
    /// `stream` with `unit(k)` (a NAL unit without start code) after the last NAL unit of access
    /// unit `k`, each NAL unit written after a 4-byte start code; and how many access units there
    /// were. An access unit starts at an access unit delimiter, a parameter set, a prefix SEI or
    /// reserved prefix type (H.265 7.4.2.4.4), or a picture's first slice, after a picture.
    public static func appending(to stream: [UInt8], unit: (Int) -> [UInt8]) -> (stream: [UInt8], units: Int) {
        var out: [UInt8] = [], units = 0, hasPicture = false
        let startCode: [UInt8] = [0, 0, 0, 1]
        for nal in nalUnits(stream) where nal.count >= 3 {
            let type = Int(nal[nal.startIndex] >> 1 & 0x3F)
            let firstSlice = type < 32 && nal[nal.startIndex + 2] & 0x80 != 0
            let startsUnit = firstSlice || (32...35).contains(type) || type == 39 || (41...44).contains(type)
                || (48...55).contains(type)
            if startsUnit && hasPicture {
                out += startCode + unit(units)
                units += 1
                hasPicture = false
            }
            if type < 32 { hasPicture = true }
            out += startCode + nal
        }
        if hasPicture {
            out += startCode + unit(units)
            units += 1
        }
        return (out, units)
    }

    /// The NAL units between start codes (the zero bytes before a start code dropped).
    static func nalUnits(_ stream: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [Int] = [], i = 0
        while i + 2 < stream.count {
            if stream[i] == 0 && stream[i + 1] == 0 && stream[i + 2] == 1 {
                starts.append(i + 3)
                i += 3
            } else {
                i += 1
            }
        }
        return starts.enumerated().map { k, start in
            var end = k + 1 < starts.count ? starts[k + 1] - 3 : stream.count
            while k + 1 < starts.count && end > start && stream[end - 1] == 0 { end -= 1 }
            return stream[start..<end]
        }
    }
}
