import SystemPackage
import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Contact sheets: the frames expected in order (the keyframe nearest each time, a blank one
/// replaced by the next keyframe), the header from the probe, exact lengths in JPEG and PNG.
@Suite struct ContactSheetTests {
    /// 3×2 tiles of 160×90 on a 520-wide sheet of the storyboard clip: times at 5%, 23%, 41%,
    /// 59%, 77% and 95% of 95 s.
    static func request(_ video: LibraryVideo) throws -> ContactSheetRequest {
        try #require(ContactSheetRequest(info: video.info, fileName: "Rome 2 Café.mp4", columns: 3, rows: 2, width: 520))
    }

    @Test func layoutFromTheProbe() throws {
        let video = try StoryboardFixture.video()
        let request = try Self.request(video)
        #expect(request.tileWidth == 160 && request.tileHeight == 90 && request.duration == 95)
        let layout = try #require(ContactSheetLayout(request))
        // 10 + 4 × 24 + 10 of header, then 2 rows of 90 + 28 + 10, then 10.
        #expect(layout.size == .init(width: 520, height: 116 + 2 * 128 + 10))
        #expect(layout.tileOrigin(0) == (10, 116) && layout.tileOrigin(4) == (180, 244))
        #expect((0..<6).map { layout.time(ofTile: $0) } == [4.75, 21.85, 38.95, 56.05, 73.15, 90.25].map { $0 })
        #expect(layout.encodedSize(format: .png) == PNGEncoder.encodedSize(width: 520, height: 382))
        #expect(request.header[0] == "Rome 2 Café.mp4")
        #expect(request.header[1].hasPrefix("Duration: 00:01:35   Size: "))
        #expect(request.header[2] == "Video: h264 (High), 320x180, 10 fps")
        #expect(request.header[3] == "Audio: none")
        // The defaults: 4×4 on 1500 pixels, vcsi's.
        let defaults = try #require(ContactSheetRequest(info: video.info, fileName: "x.mp4"))
        #expect(defaults.columns == 4 && defaults.rows == 4 && defaults.width == 1500 && defaults.tileWidth == 362)
        #expect(ContactSheetRequest(info: video.info, fileName: "x", columns: 40, width: 500) == nil)
    }

    @Test func headerOfTheLibraryFeature() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let lines = ContactSheetHeader.lines(info: video.info, stream: video.video, fileName: "feature-1080p.mp4")
        #expect(lines[2] == "Video: h264 (High), 640x360, 25 fps")
        #expect(lines[3] == "Audio: aac 2ch eng, aac 2ch spa")
        #expect(ContactSheetHeader.framesPerSecond("24000/1001") == "23.976" && ContactSheetHeader.framesPerSecond("30/1") == "30")
        #expect(ContactSheetHeader.mebibytes(147_312_345) == "140.5 MiB" && ContactSheetHeader.grouped(147_312_345) == "147,312,345")
    }

    /// The frames in order, read from each tile's strip; the tile at 38.95 s, whose nearest
    /// keyframe (38 s) is black and the one after (41 s) is not, shows 41 s.
    @Test(arguments: [ImageFormat.png, .jpeg])
    func framesInOrderBlankOnesSkipped(format: ImageFormat) throws {
        let video = try StoryboardFixture.video()
        let request = try Self.request(video)
        let layout = try #require(ContactSheetLayout(request))
        let bytes = try LocalMediaService().contactSheet(of: video.file, request: request, format: format)
        #expect(bytes.count == layout.encodedSize(format: format))
        // Kept for a person to look at.
        try? Data(bytes).write(to: FileManager.default.temporaryDirectory
            .appendingPathComponent("mediafs-contact-sheet.\(format.fileExtension)"))
        let sheet = format == .png ? try StoredPNG(bytes)
            : StoredPNG(width: layout.size.width, height: layout.size.height, rgb: try JPEGEncoderTests.ffmpegDecode(bytes))
        let shown = (0..<layout.tileCount).map { k -> Int in
            let origin = layout.tileOrigin(k)
            return FrameIndexStrip.read(sheet.region(x: origin.x, y: origin.y, width: request.tileWidth, height: request.tileHeight))
        }
        let keyframes = try StoryboardFixture.ffprobeKeyframes(video.file.path.string)
        var expected = (0..<layout.tileCount).map { k in
            Int((StoryboardFixture.nearest(keyframes, to: layout.time(ofTile: k)) * StoryboardFixture.fps).rounded())
        }
        #expect(expected == [33, 210, 380, 580, 700, 880])
        expected[2] = 410  // 38 s is blank: the next keyframe, 41 s
        #expect(shown == expected)
        // The caption band under a tile holds light text; the header's first line too.
        let origin = layout.tileOrigin(2)
        let caption = sheet.region(x: origin.x, y: origin.y + request.tileHeight, width: request.tileWidth,
                                   height: ContactSheetLayout.captionHeight)
        #expect(caption.rgb.contains { $0 > 200 })
        #expect(sheet.region(x: 10, y: 10, width: 200, height: 20).rgb.contains { $0 > 200 })
    }

    /// A 10 s film with two keyframes (0 and 5 s) and 16 tiles: the tile nearest each keyframe
    /// shows it, the others the exact frame at their times; no frame twice.
    @Test func fewerKeyframesThanTiles() throws {
        let video = try ContainerFixture.twoKeyframes()
        let request = try #require(ContactSheetRequest(info: video.info, fileName: "two.mp4", columns: 4, rows: 4, width: 700))
        let layout = try #require(ContactSheetLayout(request))
        let sheet = try StoredPNG(LocalMediaService().contactSheet(of: video.file, request: request, format: .png))
        let shown = (0..<layout.tileCount).map { k -> Int in
            let origin = layout.tileOrigin(k)
            return FrameIndexStrip.read(sheet.region(x: origin.x, y: origin.y, width: request.tileWidth, height: request.tileHeight))
        }
        // Tiles at 0.5 s + 0.6 s × k: tile 0 nearest the keyframe at 0, tile 7 (4.7 s) and tile 8
        // (5.3 s) as near the one at 5 s, which the earlier shows.
        let expected = (0..<16).map { k in k == 0 ? 0 : k == 7 ? 125 : Int((layout.time(ofTile: k) * 25 + 1e-6).rounded(.down)) }
        #expect(shown == expected)
        #expect(Set(shown).count == 16)
    }

    @Test func planOfTheTiles() {
        let index = KeyframeIndex(times: [0, 100, 500])
        let plan = ContactSheetPlan(times: [10, 40, 60, 90, 300, 450], index: index)
        #expect(plan.sources == [.keyframe(0), .exact(40), .exact(60), .keyframe(100), .exact(300), .keyframe(500)])
        #expect(plan.keyframes == [0, 100, 500])
    }

    /// The text drawn: ASCII as it is, anything else `?`; a line too long ends in `...`.
    @Test func bitmapText() {
        #expect(BitmapFont.printable("Holiday Café 2021.mp4") == "Holiday Caf? 2021.mp4")
        #expect(BitmapFont.printable("東京\tx") == "?? x")
        #expect(BitmapFont.fitted("abcdefghij", limit: 8) == "abcde..." && BitmapFont.fitted("abc", limit: 8) == "abc")
        var image = RGBImage(width: 12, height: 10, color: (0, 0, 0))
        BitmapFont.draw("|", into: &image, x: 0, y: 0, scale: 1, color: (255, 255, 255))
        // misc-fixed's bar is the fifth column (x = 2), rows 1–8.
        #expect(image.pixels[3 * (5 * 12 + 2)] == 255 && image.pixels[3 * (5 * 12 + 1)] == 0)
        #expect(RGBImage(width: 8, height: 8, color: (9, 9, 9)).lumaDeviation == 0)
    }
}
