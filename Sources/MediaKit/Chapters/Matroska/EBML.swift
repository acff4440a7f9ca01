/// An EBML element found in a buffer: its ID (with the length marker bits, as the Matroska spec
/// writes IDs) and where its data is.
struct EBMLElement {
    let id: UInt32
    /// Offset of the element's first header byte in the buffer (or the file).
    let start: Int64
    /// Where the data begins, just after the header.
    let dataStart: Int64
    /// The data's size in bytes; nil for the "unknown size" of a live-written master element.
    let size: UInt64?
}

/// Reading EBML, the binary structure of Matroska and WebM (RFC 8794).
enum EBML {
    /// Reads an element header (ID and data size) at the cursor.
    /// - Throws: `MediaError.damaged` for an invalid length marker or a header cut short.
    static func header(_ cursor: inout ByteCursor, baseOffset: Int64 = 0) throws -> EBMLElement {
        let start = Int64(cursor.position) + baseOffset
        let idLength = try markerLength(of: try peek(cursor), maximum: 4, what: "element ID")
        let id = UInt32(try cursor.unsigned(idLength))
        let sizeFirst = try peek(cursor)
        let sizeLength = try markerLength(of: sizeFirst, maximum: 8, what: "element size")
        let raw = try cursor.unsigned(sizeLength)
        let valueBits = 7 * sizeLength
        let mask: UInt64 = valueBits >= 64 ? .max : (UInt64(1) << UInt64(valueBits)) - 1
        let value = raw & mask
        return EBMLElement(id: id, start: start, dataStart: Int64(cursor.position) + baseOffset,
                           size: value == mask ? nil : value)
    }

    /// The direct children of the master element whose data is `range` of `bytes`.
    /// A child with unknown size or one that runs past its parent makes the parent damaged.
    static func children(of bytes: [UInt8], in range: Range<Int>) throws -> [(id: UInt32, data: Range<Int>)] {
        var cursor = ByteCursor(bytes, range: range)
        var result: [(id: UInt32, data: Range<Int>)] = []
        while !cursor.isAtEnd {
            let element = try header(&cursor)
            guard let size = element.size else {
                throw MediaError.damaged(reason: "element 0x\(String(element.id, radix: 16)) inside a sized parent has no size")
            }
            guard size <= UInt64(cursor.remaining) else {
                throw MediaError.damaged(reason: "element 0x\(String(element.id, radix: 16)) of \(size) bytes runs past its parent")
            }
            result.append((element.id, try cursor.take(Int(size))))
        }
        return result
    }

    /// An unsigned integer element's value (0 to 8 bytes; an empty one is 0).
    static func unsigned(_ bytes: [UInt8], _ range: Range<Int>) throws -> UInt64 {
        guard range.count <= 8 else { throw MediaError.damaged(reason: "an integer of \(range.count) bytes") }
        var cursor = ByteCursor(bytes, range: range)
        return try cursor.unsigned(range.count)
    }

    /// A float element's value (0, 4 or 8 bytes).
    static func float(_ bytes: [UInt8], _ range: Range<Int>) throws -> Double {
        var cursor = ByteCursor(bytes, range: range)
        switch range.count {
        case 0: return 0
        case 4: return Double(Float(bitPattern: try cursor.u32()))
        case 8: return Double(bitPattern: try cursor.u64())
        default: throw MediaError.damaged(reason: "a float of \(range.count) bytes")
        }
    }

    /// A string or UTF-8 element's value: up to the first NUL (EBML pads strings with NULs);
    /// invalid UTF-8 becomes U+FFFD rather than an error.
    static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String { utf8UpToNUL(bytes, range) }

    /// The length in bytes of a variable-size integer whose first byte is `first`: one more than
    /// the number of leading zero bits.
    private static func markerLength(of first: UInt8, maximum: Int, what: String) throws -> Int {
        let length = first.leadingZeroBitCount + 1
        guard first != 0, length <= maximum else {
            throw MediaError.damaged(reason: "invalid \(what) (first byte 0x\(String(first, radix: 16)))")
        }
        return length
    }

    private static func peek(_ cursor: ByteCursor) throws -> UInt8 {
        var copy = cursor
        return try copy.u8()
    }
}
