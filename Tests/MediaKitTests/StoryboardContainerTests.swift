import Foundation
@testable import MediaKit
import Synchronization
import Testing
import TestSupport

/// Storyboard tiles and contact sheet tiles in every common container: each the keyframe
/// ffprobe lists nearest its time (read from the frame-index strip), and the same picture as
/// the frame ffmpeg decodes at that keyframe.
@Suite struct StoryboardContainerTests {
    /// ffmpeg's frames at keyframe times, by file and time, made once.
    private static let made = Mutex<[String: [UInt8]]>([:])

    private func references(_ path: String, _ time: Double, _ width: Int, _ height: Int) throws -> [UInt8] {
        let key = "\(path) \(time) \(width)x\(height)"
        if let kept = Self.made.withLock({ $0[key] }) { return kept }
        let frame = try FFmpegFrames.frame(path, at: time, width: width, height: height)
        Self.made.withLock { $0[key] = frame }
        return frame
    }

    @Test(arguments: ContainerFixture.containers)
    func storyboardTilesAreTheNearestKeyframes(_ container: String) throws {
        let video = try ContainerFixture.video(container)
        let path = try ContainerFixture.path(container)
        let request = StoryboardRequest(streamIndex: video.video.index, duration: Double(ContainerFixture.duration),
                                        interval: 1, columns: 4, rows: 2, tileWidth: 160, tileHeight: 90, format: .png)
        let layout = try #require(StoryboardLayout(request))
        let keyframes = try ContainerFixture.ffprobeKeyframes(path)
        #expect(keyframes.count == 7, "\(container): \(keyframes)")
        let service = LocalMediaService()
        for sheet in 0..<layout.sheetCount {
            let picture = try StoredPNG(service.storyboardSheet(of: video.file, request: request, sheet: sheet))
            for i in layout.tiles(inSheet: sheet) {
                let tile = layout.tile(i)
                let region = picture.region(x: tile.x, y: tile.y, width: tile.width, height: tile.height)
                let keyframe = StoryboardFixture.nearest(keyframes, to: tile.time)
                #expect(FrameIndexStrip.read(region) == Int((keyframe * ContainerFixture.fps).rounded()),
                        "\(container): tile \(i) at \(tile.time) s, nearest keyframe \(keyframe) s")
                // Of ffmpeg's frames at every keyframe, the nearest keyframe's is the most alike,
                // and alike enough (the scalers differ, and the tile's H.264 skips its loop filter).
                let qualities = try keyframes.map { psnr(region.rgb, try references(path, $0, tile.width, tile.height)) }
                let best = qualities.indices.max { qualities[$0] < qualities[$1] }!
                #expect(keyframes[best] == keyframe && qualities[best] >= 22,
                        "\(container): tile \(i) against ffmpeg's frames at \(keyframes): \(qualities) dB")
            }
        }
    }

    /// The contact sheet's tiles too: each the keyframe ffprobe lists nearest its time.
    @Test(arguments: ["ts", "mpg"])
    func contactSheetTilesAreTheNearestKeyframes(_ container: String) throws {
        let video = try ContainerFixture.video(container)
        let request = try #require(ContactSheetRequest(info: video.info, fileName: "clip", columns: 3, rows: 1, width: 520))
        let layout = try #require(ContactSheetLayout(request))
        let sheet = try StoredPNG(LocalMediaService().contactSheet(of: video.file, request: request, format: .png))
        let keyframes = try ContainerFixture.ffprobeKeyframes(try ContainerFixture.path(container))
        for k in 0..<layout.tileCount {
            let origin = layout.tileOrigin(k)
            let shown = FrameIndexStrip.read(sheet.region(x: origin.x, y: origin.y, width: request.tileWidth, height: request.tileHeight))
            let keyframe = StoryboardFixture.nearest(keyframes, to: layout.time(ofTile: k))
            #expect(shown == Int((keyframe * ContainerFixture.fps).rounded()), "\(container): tile \(k)")
        }
    }
}
