/// Where every frame of a storyboard goes, from its request alone: plain integer arithmetic, so
/// the tree gets the same sheets, sizes and cues at `stat` time as the maker draws later.
///
/// Times are kept in whole milliseconds (what WebVTT and the HLS playlist write): frame `i`
/// stands for [`i` × interval, min((`i` + 1) × interval, duration)], `i` = 0 ..< ⌈duration /
/// interval⌉, so the intervals cover the duration without gap or overlap. Frames fill sheets of
/// `columns` × `rows` tiles left to right, top to bottom, with no margin between tiles (what
/// `#xywh=` fragments and `EXT-X-TILES` layouts expect).
///
/// Every sheet is full but the last: **a last sheet that is not full is the size of what it
/// holds**, as many rows as it uses (and, when it uses one row, as many columns as it holds); the
/// rest of its last row, if any, is black. No sheet is larger than it needs to be, and a
/// player's `#xywh=` never points outside its sheet.
public struct StoryboardLayout: Sendable, Hashable {
    /// The most frames a storyboard may have (27 hours at 1 s): beyond, the layout is refused.
    public static let maximumTiles = 100_000

    public let request: StoryboardRequest
    /// `request.interval` in whole milliseconds (at least 1).
    public let intervalMilliseconds: Int
    /// `request.duration` in whole milliseconds (at least 1).
    public let durationMilliseconds: Int
    /// How many frames: ⌈duration / interval⌉.
    public let tileCount: Int

    /// The layout of `request`; nil when it has none: a duration or interval below half a
    /// millisecond or not finite, fewer than one column, row or pixel, a full sheet wider or
    /// higher than `ImageEncoder.maximumSide`, or more than `maximumTiles` frames.
    public init?(_ request: StoryboardRequest) {
        guard request.duration.isFinite, request.interval.isFinite,
              request.duration < 1e9, request.interval < 1e9 else { return nil }
        let duration = Int((request.duration * 1000).rounded())
        let interval = Int((request.interval * 1000).rounded())
        guard duration >= 1, interval >= 1, request.columns >= 1, request.rows >= 1,
              request.tileWidth >= 1, request.tileHeight >= 1,
              request.columns <= ImageEncoder.maximumSide / request.tileWidth,
              request.rows <= ImageEncoder.maximumSide / request.tileHeight else { return nil }
        let count = (duration + interval - 1) / interval
        guard count <= Self.maximumTiles else { return nil }
        self.request = request
        intervalMilliseconds = interval
        durationMilliseconds = duration
        tileCount = count
    }

    /// Tiles a full sheet holds: columns × rows.
    public var tilesPerSheet: Int { request.columns * request.rows }

    /// How many sheets: ⌈tileCount / tilesPerSheet⌉ (at least 1).
    public var sheetCount: Int { (tileCount + tilesPerSheet - 1) / tilesPerSheet }

    /// The tiles of sheet `sheet` (0-based), as tile indices.
    public func tiles(inSheet sheet: Int) -> Range<Int> {
        let first = sheet * tilesPerSheet
        return first..<min(tileCount, first + tilesPerSheet)
    }

    /// The pixel size of sheet `sheet` (0-based, below `sheetCount`): full for every sheet but a
    /// last one that is not full, which is as high as the rows it uses and, when it uses only
    /// one row, as wide as the tiles it holds.
    public func sheetSize(_ sheet: Int) -> ThumbnailGeometry.Size {
        precondition((0..<sheetCount).contains(sheet), "no sheet \(sheet) of \(sheetCount)")
        let held = tiles(inSheet: sheet).count
        let columns = min(request.columns, held)
        let rows = (held + request.columns - 1) / request.columns
        return ThumbnailGeometry.Size(width: columns * request.tileWidth, height: rows * request.tileHeight)
    }

    /// The grid of sheet `sheet`, columns × rows, as its size holds them (`EXT-X-TILES`' `LAYOUT`).
    public func sheetGrid(_ sheet: Int) -> (columns: Int, rows: Int) {
        let size = sheetSize(sheet)
        return (size.width / request.tileWidth, size.height / request.tileHeight)
    }

    /// The exact length of sheet `sheet` in the request's format, whatever its pixels
    /// (`ImageEncoder.encodedSize(format:budget:)`).
    public func encodedSize(sheet: Int) -> Int {
        ImageEncoder.encodedSize(format: request.format, budget: jpegBudget(sheet: sheet))
    }

    /// The JPEG budget of sheet `sheet`: each tile it holds counted as a picture of the
    /// request's source, the black rest of a last sheet as background (`JPEGBudget`).
    public func jpegBudget(sheet: Int) -> JPEGBudget {
        let size = sheetSize(sheet)
        return JPEGBudget(width: size.width, height: size.height, tiles: tiles(inSheet: sheet).count,
                          tileWidth: request.tileWidth, tileHeight: request.tileHeight, source: request.source)
    }

    /// The JPEG budget of one tile alone (a BIF's frame): a picture of the request's source.
    public var frameBudget: JPEGBudget {
        JPEGBudget(width: request.tileWidth, height: request.tileHeight, source: request.source)
    }

    /// Tile `index` (0 ..< `tileCount`).
    public func tile(_ index: Int) -> StoryboardTile {
        precondition((0..<tileCount).contains(index), "no tile \(index) of \(tileCount)")
        let place = index % tilesPerSheet
        let start = index * intervalMilliseconds
        return StoryboardTile(index: index, sheet: index / tilesPerSheet,
                              x: place % request.columns * request.tileWidth,
                              y: place / request.columns * request.tileHeight,
                              width: request.tileWidth, height: request.tileHeight,
                              startMilliseconds: start,
                              endMilliseconds: min(start + intervalMilliseconds, durationMilliseconds))
    }

    /// The milliseconds sheet `sheet` covers: from its first tile's start to its last tile's end.
    public func sheetSpan(_ sheet: Int) -> (start: Int, end: Int) {
        let range = tiles(inSheet: sheet)
        return (tile(range.lowerBound).startMilliseconds, tile(range.upperBound - 1).endMilliseconds)
    }

    /// The file name of sheet `sheet` (0-based) that the text files point at by default: its
    /// number from 1, four digits at least, and the format's extension (`0001.jpg`, `0002.jpg`, …).
    public func sheetName(_ sheet: Int) -> String {
        let number = String(sheet + 1)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "." + request.format.fileExtension
    }

    /// The sheet (0-based) whose default name is `name` (`sheetName(_:)`: `0001.jpg` is sheet 0),
    /// or nil for any other name: a number written otherwise (`1.jpg`, `00001.jpg`), another
    /// extension, or past the last sheet. One name per sheet, so a lookup never aliases.
    public func sheet(named name: String) -> Int? {
        let suffix = "." + request.format.fileExtension
        guard name.hasSuffix(suffix), let number = Int(name.dropLast(suffix.count)),
              (1...sheetCount).contains(number), sheetName(number - 1) == name else { return nil }
        return number - 1
    }
}
