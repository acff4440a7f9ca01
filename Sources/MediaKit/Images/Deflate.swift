import CZlib

/// zlib's deflate, one buffer at a time: what lets the tree keep made pictures in memory at a
/// fraction of their size (a PNG is written uncompressed, so that its length is known before it
/// is made) and give the exact bytes again when they are read. The corresponding C functions are
/// `compress2`, `compressBound` and `uncompress`.
public enum Deflate {
    /// `bytes` deflated at `level` (1: the fastest), or nil where that does not make them smaller
    /// by at least `margin` bytes in 64 (a JPEG is already compressed).
    public static func compress(_ bytes: [UInt8], level: Int32 = 1, margin: Int = 8) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK, Int(length) <= bytes.count - bytes.count * margin / 64 else { return nil }
        // A copy of its own length: the buffer's capacity is the whole bound, kept as long as it is.
        return Array(out[..<Int(length)])
    }

    /// The `size` bytes `deflated` was made of.
    /// - Throws: `MediaError.damaged` where they do not inflate to exactly `size` bytes.
    public static func decompress(_ deflated: [UInt8], size: Int) throws(MediaError) -> [UInt8] {
        var length = uLong(size)
        var out = [UInt8](repeating: 0, count: size)
        let status = out.withUnsafeMutableBufferPointer { target in
            deflated.withUnsafeBufferPointer { source in
                uncompress(target.baseAddress, &length, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK, Int(length) == size else {
            throw MediaError.damaged(reason: "deflated bytes that do not inflate to \(size) bytes (zlib \(status))")
        }
        return out
    }
}
