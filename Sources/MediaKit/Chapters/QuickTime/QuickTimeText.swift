/// The text of a QuickTime text sample (`text` or `tx3g`): a 16-bit big-endian length, then the
/// text, then optional atoms (styles, `encd`) that are ignored here.
enum QuickTimeText {
    /// The sample's text: UTF-16 when it begins with a byte-order mark (FE FF big-endian, FF FE
    /// little-endian), else UTF-8 (a UTF-8 BOM is dropped). Invalid sequences become U+FFFD and
    /// a length past the sample is cut to the sample; trailing NULs are dropped.
    static func decode(_ sample: [UInt8]) -> String {
        guard sample.count >= 2 else { return "" }
        let length = min(Int(sample[0]) << 8 | Int(sample[1]), sample.count - 2)
        var text = Array(sample[2..<(2 + length)])
        if text.count >= 2, text[0] == 0xFE, text[1] == 0xFF {
            return utf16(text.dropFirst(2), bigEndian: true)
        }
        if text.count >= 2, text[0] == 0xFF, text[1] == 0xFE {
            return utf16(text.dropFirst(2), bigEndian: false)
        }
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        while text.last == 0 { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        let bytes = Array(bytes)
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        for i in stride(from: 0, to: bytes.count - 1, by: 2) {
            let high = bigEndian ? bytes[i] : bytes[i + 1]
            let low = bigEndian ? bytes[i + 1] : bytes[i]
            units.append(UInt16(high) << 8 | UInt16(low))
        }
        var text = String(decoding: units, as: UTF16.self)
        while text.hasSuffix("\u{0}") { text.removeLast() }
        return text
    }
}
