/// A QuickTime/ISO-BMFF atom (box) found in a buffer: its four-character type and where its
/// payload is, after the header.
struct QuickTimeAtom {
    let type: FourCC
    let data: Range<Int>
}

/// A four-character code (`moov`, `trak`, `png `) as the big-endian integer files store.
struct FourCC: Hashable, CustomStringConvertible {
    let value: UInt32

    init(_ value: UInt32) { self.value = value }

    init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4)
        var value: UInt32 = 0
        text.withUTF8Buffer { for byte in $0 { value = value << 8 | UInt32(byte) } }
        self.value = value
    }

    var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}

enum QuickTimeAtoms {
    /// The direct children of the atom whose payload is `range` of `bytes`.
    /// A size of 0 runs to the end of the parent; a size of 1 is followed by a 64-bit size.
    /// - Throws: `MediaError.damaged` for a size smaller than its header or past the parent.
    static func children(of bytes: [UInt8], in range: Range<Int>) throws -> [QuickTimeAtom] {
        var cursor = ByteCursor(bytes, range: range)
        var atoms: [QuickTimeAtom] = []
        while cursor.remaining >= 8 {
            let start = cursor.position
            let size32 = try cursor.u32()
            let type = FourCC(try cursor.u32())
            var size = UInt64(size32)
            if size32 == 1 { size = try cursor.u64() }
            if size32 == 0 { size = UInt64(cursor.end - start) }
            let header = UInt64(cursor.position - start)
            guard size >= header, size - header <= UInt64(cursor.remaining) else {
                throw MediaError.damaged(reason: "atom '\(type)' of \(size) bytes at \(start) runs past its parent")
            }
            atoms.append(QuickTimeAtom(type: type, data: try cursor.take(Int(size - header))))
        }
        return atoms
    }

    /// The first child of type `type`, if any.
    static func child(_ type: FourCC, of bytes: [UInt8], in range: Range<Int>) throws -> QuickTimeAtom? {
        try children(of: bytes, in: range).first { $0.type == type }
    }

    /// The payload of the file's top-level `moov` atom, found by walking the top-level atoms with
    /// one small read each (so `mdat`, wherever it is, is skipped, not read).
    /// - Throws: `MediaError.damaged` when there is no `moov` or a top-level size is broken,
    ///   `.unsupported` for a compressed movie (`cmov`).
    static func readMovie(_ file: FileReader) throws -> [UInt8] {
        var position: Int64 = 0
        for _ in 0..<10_000 {
            guard position + 8 <= file.length else { break }
            let headerBytes = try file.read(at: position, count: 16)
            var cursor = ByteCursor(headerBytes)
            let size32 = try cursor.u32()
            let type = FourCC(try cursor.u32())
            var size = UInt64(size32)
            if size32 == 1 { size = try cursor.u64() }
            if size32 == 0 { size = UInt64(file.length - position) }
            let header = UInt64(cursor.position)
            guard size >= header, size <= UInt64(file.length - position) || type != FourCC("moov") else {
                throw MediaError.damaged(reason: "top-level atom '\(type)' of \(size) bytes at \(position) is cut short or broken")
            }
            if type == FourCC("moov") {
                let payload = size - header
                guard payload <= UInt64(FileReader.maximumRead) else {
                    throw MediaError.damaged(reason: "a moov of \(payload) bytes is over the bound of \(FileReader.maximumRead)")
                }
                let movie = try file.readExactly(at: position + Int64(header), count: Int(payload), what: "moov")
                if try child(FourCC("cmov"), of: movie, in: 0..<movie.count) != nil {
                    throw MediaError.unsupported(reason: "compressed movie header (cmov)")
                }
                return movie
            }
            guard size <= UInt64(Int64.max - position) else { break }
            position += Int64(size)
        }
        throw MediaError.damaged(reason: "no moov atom")
    }
}

extension ByteCursor {
    /// Reads the version of a header atom (`mvhd`, `tkhd`, `mdhd`) and skips its flags and its
    /// creation and modification times (64-bit in version 1, else 32-bit); the version.
    mutating func headerVersionSkippingTimes() throws -> UInt8 {
        let version = try u8()
        try skip(3 + (version == 1 ? 16 : 8))
        return version
    }
}
