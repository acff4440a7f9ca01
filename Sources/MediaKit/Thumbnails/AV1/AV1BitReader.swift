/// Reads the fields of AV1's headers from bytes, most significant bit first: `f(n)`, `uvlc()`
/// and `leb128()` of the AV1 specification (section 4.10). Reading past the end throws
/// `Truncated`: a header cut short is not guessed at.
struct AV1BitReader {
    struct Truncated: Error {}

    private let bytes: UnsafeRawBufferPointer
    /// The next bit to read, counted from the first byte's most significant bit.
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var bitsLeft: Int { bytes.count * 8 - position }

    /// `f(n)`: an unsigned number of `count` bits (at most 32).
    mutating func bits(_ count: Int) throws -> UInt32 {
        precondition((0...32).contains(count))
        guard count <= bitsLeft else { throw Truncated() }
        var value: UInt32 = 0
        for _ in 0..<count {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | UInt32(bit)
            position += 1
        }
        return value
    }

    /// `f(1)` as a flag.
    mutating func flag() throws -> Bool { try bits(1) == 1 }

    /// Skips `count` bits.
    mutating func skip(_ count: Int) throws {
        guard count <= bitsLeft else { throw Truncated() }
        position += count
    }

    /// `uvlc()`: a variable-length unsigned number (leading zeros, a one, as many bits).
    mutating func uvlc() throws -> UInt32 {
        var leadingZeros = 0
        while try !flag() {
            leadingZeros += 1
            // The specification's value for 32 or more zeros; no conformant stream has them.
            if leadingZeros >= 32 { return UInt32.max }
        }
        return leadingZeros == 0 ? 0 : try bits(leadingZeros) + (UInt32(1) << leadingZeros) - 1
    }

    /// `leb128()`: little-endian groups of 7 bits, at most 8 bytes; byte-aligned.
    mutating func leb128() throws -> Int {
        var value = 0
        for i in 0..<8 {
            let byte = try bits(8)
            value |= Int(byte & 0x7f) << (7 * i)
            if byte & 0x80 == 0 { return value }
        }
        return value
    }
}
