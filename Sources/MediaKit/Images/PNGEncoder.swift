import CPNG

/// Writes RGB pictures as PNG files whose length is known from the size alone.
///
/// The file is always: signature, IHDR, sRGB (the pixels are sRGB; rendering intent perceptual),
/// one IDAT, IEND. The IDAT holds a zlib stream at
/// compression level 0, so the pixels are stored, not compressed: each row is a filter byte (0,
/// NONE) and `3 * width` bytes, cut into stored deflate blocks whose count depends only on the row
/// length and the number of rows. That is what lets the tree report a thumbnail's exact size at
/// `stat` time, from the probe, without decoding (see `encodedSize(width:height:)`). The price is
/// size: about 3 bytes a pixel (a 320×180 thumbnail is 173,086 bytes).
public enum PNGEncoder {
    /// The largest side accepted, in pixels; keeps the single IDAT chunk under 2³¹ bytes.
    public static let maximumSide = 16_384

    /// The exact length in bytes of the PNG `encode` makes for a `width` × `height` picture.
    ///
    /// 8 (signature) + 25 (IHDR) + 13 (sRGB) + 12 + zlib (one IDAT) + 12 (IEND), where the zlib
    /// stream is a 2-byte header, the filtered rows, 5 bytes per stored block, and a 4-byte Adler-32.
    public static func encodedSize(width: Int, height: Int) -> Int {
        8 + 25 + 13 + 12 + zlibStreamLength(width: width, height: height) + 12
    }

    /// Encodes `image` (8-bit RGB) as a PNG of exactly `encodedSize(width:height:)` bytes.
    /// The corresponding C function is `cpng_write_rgb24` (libpng's png_write_row and friends).
    /// - Throws: `MediaError.imageFailed` for a size past `maximumSide`, a libpng error, or (never
    ///   expected) a length that differs from `encodedSize`, which would break the sizes `stat` reports.
    public static func encode(_ image: RGBImage) throws -> [UInt8] {
        guard image.width <= maximumSide, image.height <= maximumSide else {
            throw MediaError.imageFailed(reason: "\(image.width)x\(image.height) is larger than \(maximumSide) pixels a side")
        }
        let expected = encodedSize(width: image.width, height: image.height)
        // Room for the whole stream plus slack, so that libpng never fills its buffer before the
        // end: the image data then goes out as one IDAT chunk (see zlibStreamLength).
        let zbufferSize = UInt32(zlibStreamLength(width: image.width, height: image.height) + 1024)
        var message = [CChar](repeating: 0, count: 256)
        var written = 0
        var status: Int32 = 0
        let capacity = expected + 64
        let png = try image.pixels.withUnsafeBufferPointer { pixels -> [UInt8] in
            guard let base = pixels.baseAddress else { throw MediaError.imageFailed(reason: "no pixels") }
            return [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
                status = cpng_write_rgb24(base, UInt32(image.width), UInt32(image.height), image.stride,
                                          zbufferSize, out.baseAddress, capacity, &written,
                                          &message, message.count)
                count = status == 0 ? written : 0
            }
        }
        guard status == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw MediaError.imageFailed(reason: "libpng: \(text)")
        }
        guard png.count == expected else {
            throw MediaError.imageFailed(reason: "PNG of \(png.count) bytes where \(expected) were predicted for \(image.width)x\(image.height)")
        }
        return png
    }

    /// The length of the zlib stream in the IDAT chunk.
    static func zlibStreamLength(width: Int, height: Int) -> Int {
        let rowLength = 1 + 3 * width
        return 2 + rowLength * height + 5 * storedBlockCount(rowLength: rowLength, rows: height) + 4
    }

    /// How many stored blocks zlib (1.2.11 and later, `deflate_stored`) writes for `rows` rows of
    /// `rowLength` bytes when libpng hands it one row at a time, then finishes, and its output
    /// space never runs short (libpng's buffer is larger than the stream).
    ///
    /// zlib keeps input until it has a worthy block, `min_block` = min(pending buffer − 5, window)
    /// = 32,768 bytes (a 32 KiB window; libpng shrinks the window only for images whose data fit
    /// in 16 KiB, which are then one block anyway), then writes everything it holds as blocks of
    /// at most 65,535 bytes while at least 32,768 remain. Finishing writes what is left as the last
    /// block, which is empty when the last row just completed a block.
    static func storedBlockCount(rowLength: Int, rows: Int) -> Int {
        let minBlock = 32_768, maxStored = 65_535
        if rowLength < minBlock {
            // Held data is below 32 KiB before each row, so below 64 KiB after it: one block per
            // ⌈32768 / rowLength⌉ rows, then the final block.
            let rowsPerBlock = (minBlock + rowLength - 1) / rowLength
            return rows / rowsPerBlock + 1
        }
        var held = 0, blocks = 0
        for _ in 0..<rows {
            held += rowLength
            while held >= minBlock {
                held -= min(held, maxStored)
                blocks += 1
            }
        }
        return blocks + 1
    }

    /// The libpng version linked in, e.g. "1.6.39".
    public static var libpngVersion: String { String(cString: cpng_libpng_version()) }
}
