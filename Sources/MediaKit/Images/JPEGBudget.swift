/// The byte budget of a JPEG picture, which depends only on its width and height: the file
/// `JPEGEncoder` writes is always exactly this long.
///
/// `bytes = max(headerBytes + bytesPerUnit × units, JPEGMosaic.bound + 4)`, where `units` is
/// `blocks^(3/4)` in integers (⌊√(blocks × ⌊√blocks⌋)⌋) and `blocks` counts the 8×8-pixel blocks
/// that cover the picture, ⌈width/8⌉ × ⌈height/8⌉. The power 3/4 follows what frames need: the
/// same quality takes about `blocks^0.7` bytes on the bench film from 320 wide to 1920 (a larger
/// picture of the same scene is smoother from one pixel to the next), more on grainy film, so a
/// budget in proportion to the area would be mostly padding at large sizes. The second term
/// makes every budget hold the fallback, whatever the size, with room for one padding segment.
/// Docs/ARCHITECTURE.md gives the measured qualities and padding.
enum JPEGBudget {
    /// Bytes of the budget any picture starts with: the headers (JFIF, quantization and Huffman
    /// tables, frame and scan: at most 625 bytes) and the smallest padding segment, rounded up.
    static let headerBytes = 640
    /// Bytes of the budget per unit (`units`): 20,560 bytes at 320×180, the smallest budget
    /// measured at which the bench film's listed frames are all well past libjpeg quality 85
    /// (93–94) and a busy, grainy film's median frame reaches it.
    static let bytesPerUnit = 120
    /// Up to this many pixels, Huffman tables are made for the picture (a second pass over
    /// coefficients kept in memory, 6 bytes a pixel at 4:4:4, for about 10% smaller files);
    /// above it, the standard tables, in one pass over a few rows.
    static let optimizedTablesPixels = 1 << 21

    /// The number of 8×8 blocks that cover a `width` × `height` picture.
    static func blocks(width: Int, height: Int) -> Int {
        ((width + 7) / 8) * ((height + 7) / 8)
    }

    /// `blocks^(3/4)`, in integers: ⌊√(blocks × ⌊√blocks⌋)⌋.
    static func units(blocks: Int) -> Int {
        squareRoot(blocks * squareRoot(blocks))
    }

    /// The budget of a `width` × `height` picture, in bytes.
    static func bytes(width: Int, height: Int) -> Int {
        let units = units(blocks: blocks(width: width, height: height))
        return max(headerBytes + bytesPerUnit * units,
                   JPEGMosaic.bound(width: width, height: height) + JPEGPadding.smallestSegment)
    }

    /// The Huffman tables a `width` × `height` picture is written with.
    static func tables(width: Int, height: Int) -> JPEGCompressor.Tables {
        width * height <= optimizedTablesPixels ? .optimized : .standard
    }

    /// ⌊√n⌋ for n ≥ 0, exactly (Newton's method in integers, from above).
    static func squareRoot(_ n: Int) -> Int {
        precondition(n >= 0)
        if n < 2 { return n }
        var x = n, y = (n + 1) / 2
        while y < x {
            x = y
            y = (x + n / x) / 2
        }
        return x
    }
}
