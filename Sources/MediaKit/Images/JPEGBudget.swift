/// The byte budget of a JPEG picture, known before anything is decoded: the file `JPEGEncoder`
/// writes is always exactly `bytes` long. It depends on the picture's size, on how many frames
/// it shows (one, or the tiles of a sheet) and on its source (`PictureSource`), nothing else.
///
/// `bytes = max(headerBytes + rate × units × tiles + restBytesPerBlock × rest,
/// JPEGMosaic.bound + 4)`, where `units` is `blocks^(3/4)` of one picture (or tile) in integers
/// (⌊√(blocks × ⌊√blocks⌋)⌋, `blocks` the 8×8-pixel blocks that cover it), `rest` the blocks
/// of a sheet outside its tiles (margins, captions, text), and `rate` the bytes per unit the
/// source earns: `⌊√(150 × milliBitsPerPixel)⌋` between `floorBytesPerUnit` and
/// `ceilingBytesPerUnit`, so 150 up to 0.15 bits per pixel, growing as the square root above,
/// 250 from 0.42. The power 3/4 follows what frames need: a larger picture of the same scene is
/// smoother from one pixel to the next, so a budget in proportion to the area would be mostly
/// padding at large sizes. A sheet counts each tile as a picture of its own, as busy as a
/// thumbnail of that size. The last term makes every budget hold the fallback, whatever the
/// size, with room for one padding segment. Docs/ARCHITECTURE.md says how the constants were
/// chosen; Docs/PERFORMANCE.md (`make bench`, section "real footage") gives what they reach.
public struct JPEGBudget: Sendable, Hashable {
    /// Bytes of the budget any picture starts with: the headers (JFIF, quantization and Huffman
    /// tables, frame and scan: at most 625 bytes) and the smallest padding segment, rounded up.
    static let headerBytes = 640
    /// Bytes per unit of any source: what a busy scene kept at a low bit rate (a lit city at
    /// night) needs at libjpeg quality 80, and a plain film's frames at 95.
    static let floorBytesPerUnit = 150
    /// Bytes per unit of the busiest sources (grain, noise), so that pictures stay about a
    /// quarter of their PNG's length at 320 wide and less at larger sizes.
    static let ceilingBytesPerUnit = 250
    /// Bytes per block of a sheet outside its tiles: black margins and the lines of text drawn
    /// on them.
    static let restBytesPerBlock = 12
    /// Up to this many pixels, Huffman tables are made for the picture (a second pass over
    /// coefficients kept in memory, 6 bytes a pixel at 4:4:4, for smaller files);
    /// above it, the standard tables, in one pass over a few rows.
    static let optimizedTablesPixels = 1 << 21

    /// The picture's size in pixels.
    public let width: Int
    public let height: Int
    /// The exact length of the file, in bytes.
    public let bytes: Int

    /// The budget of one `width` × `height` picture of `source`.
    public init(width: Int, height: Int, source: PictureSource) {
        self.init(width: width, height: height, tiles: 1, tileWidth: width, tileHeight: height, source: source)
    }

    /// The budget of a `width` × `height` sheet holding `tiles` pictures of `source`, each
    /// `tileWidth` × `tileHeight`, on a plain background with text (a storyboard sheet, a
    /// contact sheet).
    public init(width: Int, height: Int, tiles: Int, tileWidth: Int, tileHeight: Int, source: PictureSource) {
        let sheetBlocks = Self.blocks(width: width, height: height)
        let tileBlocks = Self.blocks(width: tileWidth, height: tileHeight)
        let rest = max(0, sheetBlocks - tiles * tileBlocks)
        let content = Self.headerBytes + Self.rate(source) * Self.units(blocks: tileBlocks) * tiles
            + Self.restBytesPerBlock * rest
        self.width = width
        self.height = height
        bytes = max(content, JPEGMosaic.bound(width: width, height: height) + JPEGPadding.smallestSegment)
    }

    /// Bytes per unit for pictures of `source`: ⌊√(150 × milliBitsPerPixel)⌋ (so
    /// `floorBytesPerUnit` at 0.15 bits per pixel), kept within the floor and the ceiling.
    static func rate(_ source: PictureSource) -> Int {
        guard let milli = source.milliBitsPerPixel, milli > 0 else { return floorBytesPerUnit }
        let grown = squareRoot(floorBytesPerUnit * min(milli, 1_000_000))
        return min(ceilingBytesPerUnit, max(floorBytesPerUnit, grown))
    }

    /// The number of 8×8 blocks that cover a `width` × `height` picture.
    static func blocks(width: Int, height: Int) -> Int {
        ((width + 7) / 8) * ((height + 7) / 8)
    }

    /// `blocks^(3/4)`, in integers: ⌊√(blocks × ⌊√blocks⌋)⌋.
    static func units(blocks: Int) -> Int {
        squareRoot(blocks * squareRoot(blocks))
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
