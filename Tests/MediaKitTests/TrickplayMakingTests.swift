import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Jellyfin's trickplay sheets and a BIF's frames made of the storyboard clip (`StoryboardFixture`):
/// each tile the keyframe nearest its time, read from the frame-index strip, every file exactly
/// its predicted length.
@Suite struct TrickplayMakingTests {
    static let request = StoryboardRequest(streamIndex: 0, duration: StoryboardFixture.duration, interval: 10,
                                           columns: 4, rows: 2, tileWidth: 160, tileHeight: 90)

    /// The frame index the strip at the bottom of `jpeg`'s region shows.
    static func index(_ rgb: [UInt8], width: Int, height: Int, tile: StoryboardTile) throws -> Int {
        let picture = StoredPNG(width: width, height: height, rgb: rgb)
        return FrameIndexStrip.read(picture.region(x: tile.x, y: tile.y, width: tile.width, height: tile.height))
    }

    @Test func sheetsAreTheStoryboardsOnTheFullGrid() throws {
        let video = try StoryboardFixture.video()
        var request = Self.request
        request.streamIndex = video.video.index
        let layout = try #require(TrickplayLayout(request))
        let storyboard = try #require(StoryboardLayout(request))
        #expect(layout.sheetCount == 2 && layout.sheetSize == .init(width: 640, height: 180))
        let service = LocalMediaService()
        let expected = try StoryboardSheetTests.expectedIndices(video, storyboard, fps: StoryboardFixture.fps,
                                                                blank: StoryboardFixture.blank)
        var shown: [Int] = []
        for sheet in 0..<layout.sheetCount {
            let bytes = try service.trickplaySheet(of: video.file, layout: layout, sheet: sheet)
            #expect(bytes.count == layout.sheetByteCount(sheet: sheet))
            let rgb = try JPEGEncoderTests.ffmpegDecode(bytes)
            #expect(rgb.count == 640 * 180 * 3)
            for index in layout.tiles(inSheet: sheet) {
                shown.append(try Self.index(rgb, width: 640, height: 180, tile: layout.tile(index)))
            }
            if sheet == 0 {
                // A full sheet is the storyboard's own picture, so the same JPEG.
                #expect(bytes == (try service.storyboardSheet(of: video.file, request: request, sheet: 0)))
            } else {
                // The last sheet's grid is black after its two tiles (row 1 of 2, columns 3 and 4; row 2).
                var sum = 0
                var count = 0
                for row in 0..<180 {
                    for column in (row < 90 ? 320 : 0)..<640 {
                        let at = (row * 640 + column) * 3
                        sum += Int(rgb[at]) + Int(rgb[at + 1]) + Int(rgb[at + 2])
                        count += 3
                    }
                }
                #expect(sum / count < 3)
            }
        }
        #expect(shown == expected)
        #expect(throws: MediaError.self) { try service.trickplaySheet(of: video.file, layout: layout, sheet: 2) }
    }

    @Test func bifFramesAreTheTiles() throws {
        let video = try StoryboardFixture.video()
        var request = Self.request
        request.streamIndex = video.video.index
        let storyboard = try #require(StoryboardLayout(request))
        let layout = try #require(BIFLayout(frames: storyboard))
        let service = LocalMediaService()
        let frames = try service.storyboardFrames(of: video.file, storyboard: storyboard, frames: 0..<storyboard.tileCount)
        let file = try layout.file(images: frames)
        #expect(file.count == layout.fileSize)
        let read = try BIFReader(file)
        #expect(read.frames.map(\.milliseconds) == (0..<10).map { $0 * 10_000 })
        let expected = try StoryboardSheetTests.expectedIndices(video, storyboard, fps: StoryboardFixture.fps,
                                                                blank: StoryboardFixture.blank)
        let whole = StoryboardTile(index: 0, sheet: 0, x: 0, y: 0, width: 160, height: 90, startMilliseconds: 0, endMilliseconds: 0)
        let shown = try read.frames.map { try Self.index(try JPEGEncoderTests.ffmpegDecode($0.jpeg), width: 160, height: 90, tile: whole) }
        #expect(shown == expected)
        let some = try service.storyboardFrames(of: video.file, storyboard: storyboard, frames: 3..<5)
        #expect(some == Array(frames[3..<5]))
        #expect(throws: MediaError.self) { try service.storyboardFrames(of: video.file, storyboard: storyboard, frames: 9..<11) }
    }
}
