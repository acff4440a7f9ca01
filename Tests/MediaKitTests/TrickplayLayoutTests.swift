@testable import MediaKit
import Testing

/// Jellyfin's trickplay layout against what Jellyfin's own code does (jellyfin/jellyfin
/// `Jellyfin.Server.Implementations/Trickplay/TrickplayManager.cs`, `src/Jellyfin.Drawing.Skia/
/// SkiaEncoder.cs` `CreateTrickplayTile`, `MediaBrowser.Model/Configuration/TrickplayOptions.cs`).
@Suite struct TrickplayLayoutTests {
    static func info(width: Int, height: Int, duration: Double) -> MediaInfo {
        MediaInfo(container: .init(format: "matroska,webm", duration: duration, size: 1),
                  streams: [MediaInfo.Stream(index: 0, kind: .video, codec: "h264", width: width, height: height,
                                             disposition: [], tags: [:])],
                  chapters: [], tags: [:])
    }

    /// Jellyfin's defaults: 10 s, 320 wide, 10×10; names from 0; the folder `320 - 10x10`.
    @Test func defaultsAndNames() throws {
        let layout = try #require(TrickplayLayout(info: Self.info(width: 1920, height: 1080, duration: 1_230)))
        #expect(layout.intervalMilliseconds == 10_000 && layout.columns == 10 && layout.rows == 10)
        #expect(layout.tileWidth == 320 && layout.tileHeight == 180)
        #expect(layout.folderName == "320 - 10x10")
        #expect(layout.tileCount == 123 && layout.sheetCount == 2)
        #expect(TrickplayLayout.sheetName(0) == "0.jpg" && TrickplayLayout.sheetName(12) == "12.jpg")
        #expect(layout.sheet(named: "0.jpg") == 0 && layout.sheet(named: "1.jpg") == 1)
        for name in ["2.jpg", "00.jpg", "01.jpg", "+1.jpg", "-0.jpg", "0.JPG", "0.jpeg", "0001.jpg", "0.png", ".jpg"] {
            #expect(layout.sheet(named: name) == nil, "\(name)")
        }
        #expect(layout.request.format == .jpeg)
    }

    /// Every sheet is the full grid, the last one too, so Jellyfin's import (10.10, 10.11: the
    /// tallest sheet's height over the rows, rounded up) and its discovery (12: the first sheet's)
    /// find the tile's height, even for a film of one partly filled sheet.
    @Test func everySheetIsTheFullGrid() throws {
        for duration in [5.0, 95, 990, 1_000, 1_010, 5_400] {
            let layout = try #require(TrickplayLayout(info: Self.info(width: 1920, height: 800, duration: duration)))
            #expect(layout.sheetSize == .init(width: 3200, height: 10 * layout.tileHeight))
            #expect((layout.sheetSize.height + layout.rows - 1) / layout.rows == layout.tileHeight)
            // Every sheet's budget counts the tiles it holds on the full grid, as a full storyboard sheet's.
            for sheet in 0..<layout.sheetCount {
                let budget = JPEGBudget(width: 3200, height: 10 * layout.tileHeight, tiles: layout.tiles(inSheet: sheet).count,
                                        tileWidth: layout.tileWidth, tileHeight: layout.tileHeight, source: layout.request.source)
                #expect(layout.sheetByteCount(sheet: sheet) == budget.bytes)
            }
            #expect(layout.sheetCount == (layout.tileCount + 99) / 100)
            #expect(layout.tileCount == Int((duration / 10).rounded(.up)))
        }
        let short = try #require(TrickplayLayout(info: Self.info(width: 1920, height: 1080, duration: 95)))
        #expect(short.sheetCount == 1 && short.tiles(inSheet: 0) == 0..<10)
        #expect(short.sheetSize == .init(width: 3200, height: 1800))
    }

    /// The tile a player shows at a time, as Jellyfin's web client finds it: tile ⌊ms / interval⌋,
    /// sheet ⌊tile / (columns × rows)⌋, x from the tile's place modulo the columns, y from its row.
    @Test func tilesWhereJellyfinLooks() throws {
        let layout = try #require(TrickplayLayout(info: Self.info(width: 1920, height: 1080, duration: 5_400)))
        for milliseconds in [0, 9_999, 10_000, 999_999, 1_234_567, 5_399_999] {
            let index = milliseconds / 10_000
            let place = index % 100
            let tile = layout.tile(atMilliseconds: milliseconds)
            #expect(tile.index == index && tile.sheet == index / 100)
            #expect(tile.x == place % 10 * 320 && tile.y == place / 10 * 180)
            #expect(tile.startMilliseconds == index * 10_000)
        }
        #expect(layout.tile(atMilliseconds: 9_000_000).index == layout.tileCount - 1)
    }

    /// `actualWidth`: the configured width, or the video's coded width where smaller, even.
    @Test func jellyfinsWidth() throws {
        #expect(TrickplayLayout.tileWidth(configured: 320, codedWidth: 1920) == 320)
        #expect(TrickplayLayout.tileWidth(configured: 320, codedWidth: 240) == 240)
        #expect(TrickplayLayout.tileWidth(configured: 320, codedWidth: 239) == 238)
        #expect(TrickplayLayout.tileWidth(configured: 321, codedWidth: nil) == 320)
        #expect(TrickplayLayout.tileWidth(configured: 1, codedWidth: nil) == 2)
        let narrow = try #require(TrickplayLayout(info: Self.info(width: 200, height: 150, duration: 60)))
        #expect(narrow.tileWidth == 200 && narrow.tileHeight == 150 && narrow.folderName == "200 - 10x10")
        let wide = try #require(TrickplayLayout(info: Self.info(width: 1920, height: 1080, duration: 60), interval: 5,
                                                columns: 8, rows: 6, width: 480))
        #expect(wide.folderName == "480 - 8x6" && wide.tileHeight == 270 && wide.tileCount == 12)
    }

    /// The tiles are the storyboard's: the same request gives the same tiles, and every sheet but
    /// the last the same picture; a PNG request still gives JPEG sheets.
    @Test func theStoryboardsTiles() throws {
        let request = StoryboardRequest(streamIndex: 0, duration: 1_230, tileWidth: 320, tileHeight: 180, format: .png)
        let layout = try #require(TrickplayLayout(request))
        let storyboard = try #require(StoryboardLayout(request))
        #expect(layout.request.format == .jpeg && layout.tileCount == storyboard.tileCount)
        #expect((0..<layout.tileCount).allSatisfy { layout.tile($0) == storyboard.tile($0) })
        #expect(storyboard.sheetSize(0) == layout.sheetSize && storyboard.sheetSize(1) != layout.sheetSize)
        #expect(TrickplayLayout(StoryboardRequest(streamIndex: 0, duration: 0, tileWidth: 320, tileHeight: 180)) == nil)
    }
}
