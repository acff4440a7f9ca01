/// What a PNG file says about itself before any pixel is decoded.
public enum PNGHeader {
    /// The picture's width and height from its IHDR chunk, which the PNG specification puts first,
    /// right after the 8-byte signature; nil where `bytes` is not a PNG, the IHDR is missing or
    /// cut, or gives a side of 0 or past 2³¹ − 1.
    ///
    /// Cheap: reads bytes 8–23 only. The tree uses it to know the exact size of the JPEG a stored
    /// PNG becomes (`JPEGBudget`) at `stat`.
    public static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, bytes.starts(with: signature),
              be32(bytes, 8) == 13, bytes[12...15].elementsEqual("IHDR".utf8) else { return nil }
        let width = be32(bytes, 16), height = be32(bytes, 20)
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else { return nil }
        return (width, height)
    }

    static func be32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}

extension ImageFormat {
    /// The width and height a stored file in this format gives in its header, without decoding
    /// (`JPEGHeader.dimensions`, `PNGHeader.dimensions`); nil where the header gives none.
    public func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        switch self {
        case .png: return PNGHeader.dimensions(bytes)
        case .jpeg: return JPEGHeader.dimensions(bytes)
        }
    }
}
