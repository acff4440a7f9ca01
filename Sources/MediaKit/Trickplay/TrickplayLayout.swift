/// Jellyfin's trickplay images as Jellyfin 10.10 and later writes them with "save trickplay
/// images next to media": the same tiles as a storyboard (`StoryboardLayout`: a tile every
/// interval from 0, each the keyframe nearest the start of its interval, filling sheets row by
/// row), but **every sheet is the full grid, the last one too**, black after the last tile, and
/// sheets are named from 0 (`0.jpg`, `1.jpg`, …) in a folder named for the width and the grid
/// (`320 - 10x10`), inside `<film>.trickplay/`.
///
/// Jellyfin's `TrickplayManager` pads the last sheet itself (its Skia collage is always
/// `TileWidth` × `TileHeight` tiles), and reads sheets it did not make back that way: importing a
/// folder it finds (10.10, 10.11), it takes a tile's height as the tallest sheet's height divided
/// by the rows, and its discovery (12) as the first sheet's; a short last sheet would give a
/// wrong height to a one-sheet film. Sheets are JPEG only (Jellyfin lists `*.jpg`).
///
/// Plain integer arithmetic from the request, so every sheet's exact size is known at `stat`.
public struct TrickplayLayout: Sendable, Hashable {
    /// The tiles and their times: those of the storyboard of the same request.
    public let storyboard: StoryboardLayout

    /// The layout of `request`'s tiles (its format is ignored: sheets are JPEG); nil when the
    /// storyboard has no layout (`StoryboardLayout.init?(_:)`).
    public init?(_ request: StoryboardRequest) {
        var request = request
        request.format = .jpeg
        guard let storyboard = StoryboardLayout(request) else { return nil }
        self.storyboard = storyboard
    }

    /// Jellyfin's trickplay of the file `info` describes, with its settings (`TrickplayOptions`:
    /// `Interval` 10000 ms, `WidthResolutions` [320], `TileWidth` × `TileHeight` 10 × 10 by
    /// default): tiles `tileWidth(configured:codedWidth:)` wide and as high as the display
    /// aspect makes them (`StoryboardRequest.tileSize`). Nil as `StoryboardRequest(info:…)`.
    public init?(info: MediaInfo, interval: Double = 10, columns: Int = 10, rows: Int = 10, width: Int = 320) {
        guard let stream = info.streams.first(where: \.isMovingVideo),
              let request = StoryboardRequest(info: info, interval: interval, columns: columns, rows: rows,
                                              tileWidth: Self.tileWidth(configured: width, codedWidth: stream.width),
                                              format: .jpeg) else { return nil }
        self.init(request)
    }

    /// The width Jellyfin makes tiles at and names the folder after: the configured width, or the
    /// video's coded width where that is smaller, rounded down to even (`TrickplayManager`'s
    /// `actualWidth`), at least 2.
    public static func tileWidth(configured: Int, codedWidth: Int?) -> Int {
        var width = configured
        if let codedWidth, codedWidth > 0, codedWidth < width { width = codedWidth }
        return max(2, 2 * (width / 2))
    }

    public var request: StoryboardRequest { storyboard.request }
    /// Tiles a sheet holds across: Jellyfin's `TileWidth`.
    public var columns: Int { request.columns }
    /// Tiles a sheet holds down: Jellyfin's `TileHeight`.
    public var rows: Int { request.rows }
    public var tileWidth: Int { request.tileWidth }
    public var tileHeight: Int { request.tileHeight }
    /// Milliseconds from one tile to the next: Jellyfin's `Interval`.
    public var intervalMilliseconds: Int { storyboard.intervalMilliseconds }
    /// How many tiles (Jellyfin's `ThumbnailCount` of a trickplay it made): ⌈duration / interval⌉.
    public var tileCount: Int { storyboard.tileCount }
    /// How many sheets: ⌈tileCount / (columns × rows)⌉.
    public var sheetCount: Int { storyboard.sheetCount }

    /// The pixel size of every sheet, the last one too: the full grid.
    public var sheetSize: ThumbnailGeometry.Size {
        ThumbnailGeometry.Size(width: columns * tileWidth, height: rows * tileHeight)
    }

    /// The JPEG budget of sheet `sheet`: the full grid, each tile it holds counted as a picture of
    /// the request's source, as the storyboard counts them (a full sheet's is the storyboard
    /// sheet's, so the two are the same file).
    public func jpegBudget(sheet: Int) -> JPEGBudget {
        JPEGBudget(width: sheetSize.width, height: sheetSize.height, tiles: tiles(inSheet: sheet).count,
                   tileWidth: tileWidth, tileHeight: tileHeight, source: request.source)
    }

    /// The exact length of sheet `sheet`, whatever its pixels.
    public func sheetByteCount(sheet: Int) -> Int { jpegBudget(sheet: sheet).bytes }

    /// The tiles of sheet `sheet` (0-based), as tile indices; the last sheet's grid is black after them.
    public func tiles(inSheet sheet: Int) -> Range<Int> { storyboard.tiles(inSheet: sheet) }

    /// Tile `index`: its sheet, its place in the sheet and its interval (as the storyboard's).
    public func tile(_ index: Int) -> StoryboardTile { storyboard.tile(index) }

    /// The tile a player shows at `milliseconds`, as Jellyfin's web client finds it:
    /// ⌊milliseconds / interval⌋, kept to the last tile.
    public func tile(atMilliseconds milliseconds: Int) -> StoryboardTile {
        tile(min(max(0, milliseconds / intervalMilliseconds), tileCount - 1))
    }

    /// The folder of the sheets inside `<film>.trickplay/`: `"<tileWidth> - <columns>x<rows>"`, as
    /// `TrickplayManager.GetTrickplayDirectory` formats it (`"320 - 10x10"`).
    public var folderName: String { "\(tileWidth) - \(columns)x\(rows)" }

    /// The file name of sheet `sheet`: its number from 0, no padding, `.jpg` (`0.jpg`, `12.jpg`).
    public static func sheetName(_ sheet: Int) -> String { "\(sheet).jpg" }

    /// The sheet whose name is `name` (`sheetName(_:)`), or nil for any other name: a number
    /// written otherwise (`00.jpg`, `+1.jpg`), another extension, or past the last sheet.
    public func sheet(named name: String) -> Int? {
        guard name.hasSuffix(".jpg"), let number = Int(name.dropLast(4)),
              (0..<sheetCount).contains(number), Self.sheetName(number) == name else { return nil }
        return number
    }
}
