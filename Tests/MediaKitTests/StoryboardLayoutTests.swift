@testable import MediaKit
import Testing

/// The storyboard's layout and its text files, from the request alone.
@Suite struct StoryboardLayoutTests {
    /// 95 s at 10 s in sheets of 4×2 tiles of 160×90: 10 tiles, a full sheet and a last one of two.
    static let request = StoryboardRequest(streamIndex: 0, duration: 95, interval: 10, columns: 4, rows: 2,
                                           tileWidth: 160, tileHeight: 90)

    @Test func sheetsAndTiles() throws {
        let layout = try #require(StoryboardLayout(Self.request))
        #expect(layout.tileCount == 10 && layout.tilesPerSheet == 8 && layout.sheetCount == 2)
        #expect(layout.sheetSize(0) == .init(width: 640, height: 180))
        #expect(layout.sheetSize(1) == .init(width: 320, height: 90))
        #expect(layout.sheetGrid(1) == (2, 1))
        #expect(layout.tiles(inSheet: 0) == 0..<8 && layout.tiles(inSheet: 1) == 8..<10)
        let t5 = layout.tile(5)
        #expect(t5.sheet == 0 && t5.x == 160 && t5.y == 90 && t5.width == 160 && t5.height == 90)
        #expect(t5.startMilliseconds == 50_000 && t5.endMilliseconds == 60_000 && t5.time == 50)
        let t9 = layout.tile(9)
        #expect(t9.sheet == 1 && t9.x == 160 && t9.y == 0 && t9.startMilliseconds == 90_000 && t9.endMilliseconds == 95_000)
        #expect(layout.sheetSpan(1) == (80_000, 95_000))
        // Each tile a picture of its own: the last sheet, two tiles of 160×90 and nothing else.
        let last = JPEGBudget(width: 320, height: 90, tiles: 2, tileWidth: 160, tileHeight: 90, source: .unknown)
        #expect(layout.jpegBudget(sheet: 1) == last && layout.encodedSize(sheet: 1) == last.bytes)
        #expect(layout.sheetName(0) == "0001.jpg" && layout.sheetName(11_233) == "11234.jpg")
        #expect(layout.sheet(named: "0001.jpg") == 0 && layout.sheet(named: "0002.jpg") == 1)
        for name in ["0003.jpg", "0000.jpg", "1.jpg", "00001.jpg", "0001.png", "0001.JPG", "+001.jpg", "-001.jpg", "x.jpg"] {
            #expect(layout.sheet(named: name) == nil, "\(name)")
        }
    }

    /// A last sheet holding more than a row is as high as its rows and as wide as a full one;
    /// an exact multiple of the interval has no short last tile; the defaults give 10×10 sheets.
    @Test func lastSheetsAndDefaults() throws {
        let layout = try #require(StoryboardLayout(StoryboardRequest(streamIndex: 0, duration: 1_230, tileWidth: 320, tileHeight: 180)))
        #expect(layout.tileCount == 123 && layout.sheetCount == 2)
        #expect(layout.sheetSize(0) == .init(width: 3200, height: 1800))
        #expect(layout.sheetSize(1) == .init(width: 3200, height: 540))
        #expect(layout.tile(122).endMilliseconds == 1_230_000 && layout.tile(122).startMilliseconds == 1_220_000)
        let short = try #require(StoryboardLayout(StoryboardRequest(streamIndex: 0, duration: 0.4, tileWidth: 320, tileHeight: 180)))
        #expect(short.tileCount == 1 && short.sheetSize(0) == .init(width: 320, height: 180))
        #expect(short.tile(0).endMilliseconds == 400)
    }

    @Test func refusedLayouts() {
        func layout(_ duration: Double, _ interval: Double, _ columns: Int = 10, _ width: Int = 320) -> StoryboardLayout? {
            StoryboardLayout(StoryboardRequest(streamIndex: 0, duration: duration, interval: interval, columns: columns,
                                               tileWidth: width, tileHeight: 180))
        }
        #expect(layout(0, 10) == nil && layout(.nan, 10) == nil && layout(100, 0) == nil && layout(100, .infinity) == nil)
        #expect(layout(100, 10, 0) == nil && layout(100, 10, 52) == nil)  // 52 × 320 > 16,384
        #expect(layout(100, 10, 51) != nil)
        #expect(layout(1e6, 0.001) == nil)  // more than maximumTiles
    }

    /// The tile size from the display aspect: square pixels, anamorphic PAL, a phone turned a
    /// quarter, an odd height rounded to the nearest even.
    @Test func tileSizes() {
        func stream(_ w: Int, _ h: Int, sar: String? = nil, rotation: Double? = nil) -> MediaInfo.Stream {
            MediaInfo.Stream(index: 0, kind: .video, width: w, height: h, sampleAspectRatio: sar, rotation: rotation,
                             disposition: [], tags: [:])
        }
        #expect(StoryboardRequest.tileSize(of: stream(1920, 1080), width: 320) == .init(width: 320, height: 180))
        #expect(StoryboardRequest.tileSize(of: stream(720, 576, sar: "64:45"), width: 320) == .init(width: 320, height: 180))
        #expect(StoryboardRequest.tileSize(of: stream(1920, 1080, rotation: -90), width: 320) == .init(width: 320, height: 568))
        #expect(StoryboardRequest.tileSize(of: stream(1440, 1080), width: 320) == .init(width: 320, height: 240))
        #expect(StoryboardRequest.tileSize(of: stream(2048, 858), width: 320) == .init(width: 320, height: 134))
        #expect(StoryboardRequest.tileSize(of: stream(160, 90), width: 320) == .init(width: 320, height: 180))
    }

    @Test func webVTTText() throws {
        let layout = try #require(StoryboardLayout(Self.request))
        let vtt = layout.webVTT()
        #expect(vtt.hasPrefix("""
            WEBVTT

            00:00:00.000 --> 00:00:10.000
            0001.jpg#xywh=0,0,160,90

            00:00:10.000 --> 00:00:20.000
            0001.jpg#xywh=160,0,160,90

            """))
        #expect(vtt.hasSuffix("""

            00:01:20.000 --> 00:01:30.000
            0002.jpg#xywh=0,0,160,90

            00:01:30.000 --> 00:01:35.000
            0002.jpg#xywh=160,0,160,90


            """))
        // Every interval covered, in order, without gap: each cue starts where the last ended.
        let cues = Self.cues(vtt)
        #expect(cues.count == 10)
        #expect(cues.first?.start == 0 && cues.last?.end == 95_000)
        for (a, b) in zip(cues, cues.dropFirst()) { #expect(a.end == b.start && a.start < a.end) }
        let named = layout.webVTT { "sheets/board-\($0).jpg" }
        #expect(named.contains("sheets/board-1.jpg#xywh=160,0,160,90"))
    }

    @Test func longTimesInCues() throws {
        let layout = try #require(StoryboardLayout(StoryboardRequest(streamIndex: 0, duration: 36_001.5, interval: 7.25,
                                                                     tileWidth: 320, tileHeight: 180)))
        let cues = Self.cues(layout.webVTT())
        #expect(cues.count == layout.tileCount && cues.last?.end == 36_001_500)
        #expect(layout.webVTT().contains("09:59:56.250 --> 10:00:01.500\n"))
        for (a, b) in zip(cues, cues.dropFirst()) { #expect(a.end == b.start) }
    }

    @Test func hlsPlaylistText() throws {
        let layout = try #require(StoryboardLayout(Self.request))
        #expect(layout.hlsPlaylist() == """
            #EXTM3U
            #EXT-X-TARGETDURATION:80
            #EXT-X-VERSION:7
            #EXT-X-MEDIA-SEQUENCE:1
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-IMAGES-ONLY
            #EXTINF:80.000,
            #EXT-X-TILES:RESOLUTION=160x90,LAYOUT=4x2,DURATION=10.000
            0001.jpg
            #EXTINF:15.000,
            #EXT-X-TILES:RESOLUTION=160x90,LAYOUT=2x1,DURATION=10.000
            0002.jpg
            #EXT-X-ENDLIST

            """)
    }

    /// The cues of a WebVTT text as (start, end) in milliseconds, parsed independently of the maker.
    static func cues(_ vtt: String) -> [(start: Int, end: Int)] {
        func ms(_ text: Substring) -> Int {
            let parts = text.split(separator: ":")
            let seconds = parts[2].split(separator: ".")
            return ((Int(parts[0])! * 60 + Int(parts[1])!) * 60 + Int(seconds[0])!) * 1000 + Int(seconds[1])!
        }
        return vtt.split(separator: "\n").filter { $0.contains(" --> ") }.map { line in
            let sides = line.split(separator: " ")
            return (ms(sides[0]), ms(sides[2]))
        }
    }

    @Test func keyframeIndex() {
        let index = KeyframeIndex(times: [40, 0, 10, 20, 10])
        #expect(index.times == [0, 10, 20, 40])
        #expect(index.nearest(to: -5) == 0 && index.nearest(to: 4) == 0 && index.nearest(to: 5) == 0)
        #expect(index.nearest(to: 6) == 10 && index.nearest(to: 30) == 20 && index.nearest(to: 31) == 40)
        #expect(index.nearest(to: 1000) == 40 && index.nearest(to: 20) == 20)
        #expect(index.next(after: 10) == 20 && index.next(after: 11) == 20 && index.next(after: 40) == nil)
        #expect(KeyframeIndex(times: []).nearest(to: 3) == nil)
    }

    @Test func timeText() {
        #expect(ClockText.cue(milliseconds: 3_723_045) == "01:02:03.045")
        #expect(ClockText.cue(milliseconds: 360_000_000) == "100:00:00.000")
        #expect(ClockText.seconds(milliseconds: 10_000) == "10.000" && ClockText.seconds(milliseconds: 4_005) == "4.005")
        #expect(ClockText.clock(seconds: 59.999) == "00:00:59" && ClockText.clock(seconds: -3.0) == "00:00:00")
    }

    /// The VTT's size worked out without writing it is the written text's, whatever the times
    /// (hours past 99), positions and names.
    @Test func webVTTSizeWithoutWriting() throws {
        let requests = [
            Self.request,
            StoryboardRequest(streamIndex: 0, duration: 1_230, tileWidth: 320, tileHeight: 180),
            StoryboardRequest(streamIndex: 0, duration: 36_001.5, interval: 7.25, tileWidth: 320, tileHeight: 180),
            StoryboardRequest(streamIndex: 0, duration: 400_000, interval: 3_600, columns: 3, rows: 40, tileWidth: 4000,
                              tileHeight: 400),
            StoryboardRequest(streamIndex: 0, duration: 0.2, interval: 0.001, columns: 7, rows: 3, tileWidth: 9, tileHeight: 2),
        ]
        for request in requests {
            let layout = try #require(StoryboardLayout(request))
            #expect(layout.webVTTSize() == layout.webVTT().utf8.count, "\(request)")
            let named: (Int) -> String = { "Sheets/Café board \($0 * 1000).jpg" }
            #expect(layout.webVTTSize(sheetName: named) == layout.webVTT(sheetName: named).utf8.count)
        }
    }
}
