/// A bounds-checked reader over bytes in memory, big-endian as both Matroska and QuickTime are.
///
/// Every read either returns what was asked for or throws `MediaError.damaged`: a damaged length
/// can make a parser give up, never read outside its buffer.
struct ByteCursor {
    let bytes: [UInt8]
    /// The next byte to read.
    private(set) var position: Int
    /// One past the last byte this cursor may read.
    let end: Int

    /// A cursor over `range` of `bytes` (all of them by default).
    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        let range = range ?? 0..<bytes.count
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position >= end }

    mutating func u8() throws -> UInt8 {
        try need(1)
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws -> UInt16 { UInt16(try unsigned(2)) }
    mutating func u24() throws -> UInt32 { UInt32(try unsigned(3)) }
    mutating func u32() throws -> UInt32 { UInt32(try unsigned(4)) }
    mutating func u64() throws -> UInt64 { try unsigned(8) }
    mutating func i64() throws -> Int64 { Int64(bitPattern: try unsigned(8)) }

    /// A big-endian unsigned integer of `count` bytes (0 to 8).
    mutating func unsigned(_ count: Int) throws -> UInt64 {
        precondition(count >= 0 && count <= 8)
        try need(count)
        var value: UInt64 = 0
        for i in 0..<count { value = value << 8 | UInt64(bytes[position + i]) }
        position += count
        return value
    }

    /// The range of the next `count` bytes, which the cursor moves past.
    mutating func take(_ count: Int) throws -> Range<Int> {
        try need(count)
        defer { position += count }
        return position..<(position + count)
    }

    /// A copy of the next `count` bytes.
    mutating func read(_ count: Int) throws -> [UInt8] {
        Array(bytes[try take(count)])
    }

    mutating func skip(_ count: Int) throws { _ = try take(count) }

    /// A cursor over the next `count` bytes, which this cursor moves past.
    mutating func sub(_ count: Int) throws -> ByteCursor {
        ByteCursor(bytes, range: try take(count))
    }

    private func need(_ count: Int) throws {
        guard count >= 0, count <= end - position else {
            throw MediaError.damaged(reason: "needs \(count) bytes at offset \(position) where \(end - position) remain")
        }
    }
}

/// The UTF-8 text in `range` of `bytes` up to the first NUL (EBML strings are NUL-padded,
/// QuickTime's `elng` is NUL-terminated); invalid UTF-8 becomes U+FFFD rather than an error.
func utf8UpToNUL(_ bytes: [UInt8], _ range: Range<Int>) -> String {
    let slice = bytes[range]
    let text = slice.firstIndex(of: 0).map { slice[..<$0] } ?? slice
    return String(decoding: text, as: UTF8.self)
}
