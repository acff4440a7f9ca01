/// The fallback for a picture that does not fit its budget even at libjpeg quality 1 (no real
/// frame comes close; only hostile pixels could): the picture as a mosaic of 32×32-pixel tiles,
/// each its mean colour, written with 4:2:0 chroma, the standard Huffman tables and quality 100.
/// Its length has a bound that depends only on the width and height (`bound`), which the budget
/// always holds (`JPEGBudget`).
///
/// Why the bound holds. Each 16×16 MCU (four 8×8 luma blocks, one Cb, one Cr) lies inside one
/// tile, and libjpeg fills the part of an MCU past the picture's edge by repeating the edge
/// pixels, so every block is one flat colour: its 63 AC coefficients are exactly 0 and it is coded
/// as a DC difference (from the block before it in coding order) and an end-of-block. In the
/// standard tables (JPEG specification, Annex K.3) a DC difference of category c takes, in luma,
/// 2 bits for c = 0 and at most 9 + 11 bits for any c (category 11, the largest in baseline);
/// in chroma 2 bits for c = 0, at most 11 + 11; end-of-block is 4 bits in luma, 2 in chroma.
/// - An MCU that starts a tile in its MCU row (an even column of MCUs): its first luma block
///   and both chroma blocks may differ from what came before (≤ 24 bits each), its other three
///   luma blocks are equal to the first (6 bits each): at most 90 bits.
/// - Any other MCU continues the tile of the one before it: every difference is 0, 4 × 6 + 2 × 4
///   = 32 bits.
/// The entropy-coded data is then at most ⌈bits / 8⌉ bytes (the last byte padded), and at most
/// twice that once each 0xFF byte is followed by its stuffed 0x00. The rest of the file is fixed:
/// SOI 2, JFIF APP0 18, two DQT 138, SOF0 19, four standard DHT 432, SOS 14, EOI 2 = 625 bytes.
enum JPEGMosaic {
    /// The side of a tile, in pixels: two MCUs.
    static let tile = 32
    /// The quality the mosaic is written at: its colours exact to a DC quantizer of 1.
    static let quality = 100
    /// The fixed part of a file with the standard tables and no padding, in bytes (see above).
    static let standardHeaderBytes = 2 + 18 + 2 * 69 + 19 + 2 * 33 + 2 * 183 + 14 + 2

    /// The most bytes the mosaic of a `width` × `height` picture can take (see above).
    static func bound(width: Int, height: Int) -> Int {
        let columns = (width + 15) / 16, rows = (height + 15) / 16
        let starting = (columns + 1) / 2
        let bits = rows * (starting * 90 + (columns - starting) * 32)
        return standardHeaderBytes + 2 * ((bits + 7) / 8)
    }

    /// `image` as the mosaic, written: at most `bound(width:height:)` bytes, or nil past `limit`.
    /// - Throws: `MediaError.imageFailed` for a libjpeg error.
    static func compress(_ image: RGBImage, limit: Int) throws -> [UInt8]? {
        try JPEGCompressor.compress(tiles(of: image), quality: quality, tables: .standard, chroma: JPEGEncoder.Chroma.halved, limit: limit)
    }

    /// `image` with each tile (counted from the top left; those at the right and bottom edges may
    /// be smaller) filled with its mean colour, rounded.
    static func tiles(of image: RGBImage) -> RGBImage {
        let (width, height, stride) = (image.width, image.height, image.stride)
        var out = [UInt8](repeating: 0, count: 3 * width * height)
        image.pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for top in Swift.stride(from: 0, to: height, by: tile) {
                    let rows = top ..< min(top + tile, height)
                    for left in Swift.stride(from: 0, to: width, by: tile) {
                        let columns = left ..< min(left + tile, width)
                        var sums = (0, 0, 0)
                        for y in rows {
                            for x in columns {
                                let at = y * stride + 3 * x
                                sums.0 += Int(source[at]); sums.1 += Int(source[at + 1]); sums.2 += Int(source[at + 2])
                            }
                        }
                        let count = rows.count * columns.count
                        let mean = [sums.0, sums.1, sums.2].map { UInt8(($0 + count / 2) / count) }
                        for y in rows {
                            for x in columns {
                                let at = 3 * (y * width + x)
                                target[at] = mean[0]; target[at + 1] = mean[1]; target[at + 2] = mean[2]
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }
}
