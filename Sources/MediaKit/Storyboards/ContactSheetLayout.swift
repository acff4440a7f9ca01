/// Where everything of a contact sheet goes, and which times its frames are taken nearest, from
/// its request alone: plain integer arithmetic, so the tree knows the sheet's pixel size (and so
/// its exact length, `encodedSize(format:)`) from the probe.
///
/// The sheet, `request.width` wide, on black: a margin, the header's lines (6×10 font pixels
/// drawn 2× , `BitmapFont`, one line every `lineHeight` pixels), a margin, then `rows` rows of
/// `columns` tiles, each tile a picture with a caption band under it that shows the frame's
/// time, tiles and rows `margin` apart, a margin around all. The pixels the columns leave over
/// (fewer than `columns`) are split between the left and right margins.
public struct ContactSheetLayout: Sendable, Hashable {
    /// Pixels around the sheet and between tiles.
    public static let margin = 10
    /// Font pixels are drawn as squares of this side.
    public static let textScale = 2
    /// Pixels from one header line to the next: a 20-pixel line and 4 of spacing.
    public static let lineHeight = BitmapFont.glyphHeight * textScale + 4
    /// The band under each picture that holds its time: the text and 4 pixels above and below.
    public static let captionHeight = BitmapFont.glyphHeight * textScale + 8
    /// Frames are taken from this share of the duration on, to as much before its end: the first
    /// and last 5% of a film are titles and credits, not the film (vcsi skips 7%).
    public static let skippedShare = 0.05
    /// The narrowest tile accepted.
    public static let minimumTileWidth = 16

    public let request: ContactSheetRequest

    /// The layout of `request`; nil for fewer than one column or row, tiles narrower than
    /// `minimumTileWidth` or another size than `request.width` leaves them, or a sheet past
    /// `ImageEncoder.maximumSide`.
    public init?(_ request: ContactSheetRequest) {
        guard request.columns >= 1, request.rows >= 1, request.tileHeight >= 1,
              request.width <= ImageEncoder.maximumSide, request.columns <= request.width,
              request.tileWidth >= Self.minimumTileWidth,
              request.tileWidth == Self.tileWidth(sheetWidth: request.width, columns: request.columns),
              request.header.count <= 100, request.rows <= ImageEncoder.maximumSide,
              request.duration.isFinite, request.duration > 0 else { return nil }
        self.request = request
        guard height <= ImageEncoder.maximumSide else { return nil }
    }

    /// The width of each tile on a sheet `sheetWidth` wide with `columns` columns: what remains
    /// after the margins, shared out (rounded down).
    public static func tileWidth(sheetWidth: Int, columns: Int) -> Int {
        guard columns >= 1 else { return 0 }
        return (sheetWidth - (columns + 1) * margin) / columns
    }

    /// The sheet's height in pixels.
    public var height: Int {
        headerHeight + request.rows * rowHeight + Self.margin
    }

    /// The sheet's size in pixels.
    public var size: ThumbnailGeometry.Size { ThumbnailGeometry.Size(width: request.width, height: height) }

    /// The exact length of the sheet in `format`, whatever its pixels.
    public func encodedSize(format: ImageFormat) -> Int {
        ImageEncoder.encodedSize(format: format, budget: jpegBudget)
    }

    /// The sheet's JPEG budget: each tile counted as a picture of the request's source, the
    /// header, captions and margins as text on a plain background (`JPEGBudget`).
    public var jpegBudget: JPEGBudget {
        JPEGBudget(width: request.width, height: height, tiles: tileCount, tileWidth: request.tileWidth,
                   tileHeight: request.tileHeight, source: request.source)
    }

    /// From the top to the first row of tiles: a margin, the header's lines, a margin.
    var headerHeight: Int { Self.margin + request.header.count * Self.lineHeight + Self.margin }

    /// From one row of tiles to the next: the pictures, their captions, a margin.
    var rowHeight: Int { request.tileHeight + Self.captionHeight + Self.margin }

    /// How many frames: columns × rows.
    public var tileCount: Int { request.columns * request.rows }

    /// The top-left corner of tile `index`'s picture (its caption is right under it).
    public func tileOrigin(_ index: Int) -> (x: Int, y: Int) {
        let spare = request.width - request.columns * request.tileWidth - (request.columns + 1) * Self.margin
        let column = index % request.columns, row = index / request.columns
        return (spare / 2 + Self.margin + column * (request.tileWidth + Self.margin), headerHeight + row * rowHeight)
    }

    /// The time tile `index`'s frame is taken nearest, in seconds from the first frame: the
    /// tiles' times spread evenly from 5% of the duration to 95% (`skippedShare`), both ends
    /// included; one tile alone is at the middle. Rounded to the microsecond.
    public func time(ofTile index: Int) -> Double {
        let d = request.duration
        guard tileCount > 1 else { return Prober.microseconds(d / 2) }
        return Prober.microseconds(d * (Self.skippedShare + (1 - 2 * Self.skippedShare) * Double(index) / Double(tileCount - 1)))
    }

    /// How many characters of header text fit on a line.
    var charactersPerLine: Int {
        max(1, (request.width - 2 * Self.margin) / (BitmapFont.glyphWidth * Self.textScale))
    }
}
