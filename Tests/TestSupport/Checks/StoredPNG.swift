/// A PNG reader for the files `PNGEncoder` writes, and only those: 8-bit RGB, not interlaced,
/// zlib stored blocks, filter NONE. It checks every chunk's CRC, the zlib header and Adler-32,
/// so a test that reads a thumbnail with it also checks the file is well formed.
public struct StoredPNG: Sendable {
    public var width: Int
    public var height: Int
    /// Tight rows of `3 * width` bytes.
    public var rgb: [UInt8]
    /// The chunk types in file order.
    public var chunks: [String]

    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// A picture decoded elsewhere (by PIL, say), for the readers of a `StoredPNG`.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
        chunks = []
    }

    public init(_ bytes: [UInt8]) throws {
        func fail(_ text: String) -> Malformed { Malformed(description: text) }
        func be32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        guard bytes.starts(with: [137, 80, 78, 71, 13, 10, 26, 10]) else { throw fail("no PNG signature") }
        var at = 8, idat: [UInt8] = [], chunks: [String] = [], header: ArraySlice<UInt8> = []
        while at < bytes.count {
            guard at + 12 <= bytes.count else { throw fail("cut chunk at \(at)") }
            let length = be32(at)
            guard at + 12 + length <= bytes.count else { throw fail("chunk longer than the file at \(at)") }
            let type = String(decoding: bytes[at + 4 ..< at + 8], as: UTF8.self)
            let data = bytes[at + 8 ..< at + 8 + length]
            guard UInt32(be32(at + 8 + length)) == StoredPNG.crc32(bytes[at + 4 ..< at + 8 + length]) else {
                throw fail("bad CRC in \(type)")
            }
            chunks.append(type)
            if type == "IHDR" { header = data }
            if type == "IDAT" { idat += data }
            at += 12 + length
            if type == "IEND" { break }
        }
        guard at == bytes.count, chunks.first == "IHDR", chunks.last == "IEND", header.count == 13 else {
            throw fail("chunks \(chunks), \(bytes.count - at) bytes after IEND")
        }
        let h = Array(header)
        width = Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
        height = Int(h[4]) << 24 | Int(h[5]) << 16 | Int(h[6]) << 8 | Int(h[7])
        guard h[8] == 8, h[9] == 2, h[10] == 0, h[11] == 0, h[12] == 0 else { throw fail("not 8-bit RGB, plain: \(h[8...])") }
        self.chunks = chunks

        // zlib: header, stored blocks, Adler-32.
        guard idat.count >= 6, idat[0] & 0x0f == 8, (Int(idat[0]) * 256 + Int(idat[1])) % 31 == 0 else { throw fail("bad zlib header") }
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + 3 * width))
        var p = 2, final = false
        while !final {
            guard p + 5 <= idat.count else { throw fail("cut deflate block") }
            final = idat[p] & 1 == 1
            guard (idat[p] >> 1) & 3 == 0 else { throw fail("not a stored block") }
            let len = Int(idat[p + 1]) | Int(idat[p + 2]) << 8
            let nlen = Int(idat[p + 3]) | Int(idat[p + 4]) << 8
            guard len ^ nlen == 0xffff, p + 5 + len <= idat.count else { throw fail("bad stored block length") }
            raw += idat[p + 5 ..< p + 5 + len]
            p += 5 + len
        }
        guard p + 4 == idat.count else { throw fail("\(idat.count - p) bytes after the last block") }
        let adler = UInt32(idat[p]) << 24 | UInt32(idat[p + 1]) << 16 | UInt32(idat[p + 2]) << 8 | UInt32(idat[p + 3])
        guard adler == StoredPNG.adler32(raw) else { throw fail("bad Adler-32") }
        let rowLength = 1 + 3 * width
        guard raw.count == rowLength * height else { throw fail("\(raw.count) bytes of rows, not \(rowLength * height)") }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(3 * width * height)
        for y in 0..<height {
            guard raw[y * rowLength] == 0 else { throw fail("row \(y) has filter \(raw[y * rowLength])") }
            rgb += raw[y * rowLength + 1 ..< (y + 1) * rowLength]
        }
        self.rgb = rgb
    }

    /// The `width` × `height` region whose top-left corner is at (`x`, `y`).
    public func region(x: Int, y: Int, width w: Int, height h: Int) -> StoredPNG {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(3 * w * h)
        for row in y..<(y + h) {
            rgb += self.rgb[3 * (row * width + x) ..< 3 * (row * width + x + w)]
        }
        return StoredPNG(width: w, height: h, rgb: rgb)
    }

    /// The pixel at (x, y) as (r, g, b).
    public func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// The mean of r, g and b at (x, y), 0…255.
    public func brightness(_ x: Int, _ y: Int) -> Int {
        let p = pixel(x, y)
        return (p.r + p.g + p.b) / 3
    }

    public static func crc32<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for chunk in stride(from: 0, to: bytes.count, by: 5552) {
            for byte in bytes[chunk ..< min(chunk + 5552, bytes.count)] {
                a += UInt32(byte)
                b += a
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}
