import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Full and limited range through the whole chain, and colours a file leaves unspecified taken
/// as a player takes them: each thumbnail within `ToneMapReference.tolerance` of the ffmpeg
/// command's picture of the same frame.
@Suite struct ColorRangeTests {
    /// A full-range PQ clip: tone-mapped from full range (the scaling before tone mapping keeps
    /// the range; it once turned full into limited and told zscale it was still full: mean
    /// distances of 24/12/18).
    @Test func fullRangePQ() throws {
        let clip = try ColorRangeFixture.video("pq-full.mkv")
        let (_, png, index) = try clip.thumbnail(LocalMediaService(), at: 1.0)
        #expect(index == 25)
        let reference = try ToneMapReference.frame(clip.file.path.string, at: 1.0, width: 320, height: 180)
        let distance = ColorDistance(png.rgb, reference)
        #expect(distance.worstChannel <= ToneMapReference.tolerance, "\(distance)")
    }

    /// PQ with primaries, matrix and range unspecified: taken as BT.2020 limited range, what
    /// players take an HDR transfer to come with (zscale once failed: "no path between
    /// colorspaces"); the reference labels the frame so before the chain.
    @Test func unspecifiedPQ() throws {
        let clip = try ColorRangeFixture.video("pq-untagged.mkv")
        #expect(clip.video.colorPrimaries == nil && clip.video.colorSpace == nil && clip.video.colorTransfer == "smpte2084")
        let (_, png, index) = try clip.thumbnail(LocalMediaService(), at: 1.0)
        #expect(index == 25)
        let reference = try ToneMapReference.frame(clip.file.path.string, at: 1.0, width: 320, height: 180,
                                                   before: "setparams=color_primaries=bt2020:colorspace=bt2020nc:range=tv")
        let distance = ColorDistance(png.rgb, reference)
        #expect(distance.worstChannel <= ToneMapReference.tolerance, "\(distance)")
    }

    /// A full-range SDR clip: thumbnails, and storyboard tiles (the two-step tile scaler), as the
    /// ffmpeg command converts it.
    @Test func fullRangeSDR() throws {
        let clip = try ColorRangeFixture.video("sdr-full.mp4")
        let service = LocalMediaService()
        let (_, png, _) = try clip.thumbnail(service, at: 1.0)
        let reference = try ToneMapReference.frame(clip.file.path.string, at: 1.0, width: 320, height: 180, toneMapped: false)
        let distance = ColorDistance(png.rgb, reference)
        // At the clip's own size the chroma interpolations differ on testsrc2's saturated edges
        // (4 at most); read as limited range, the values would stretch, brighter on average.
        #expect(distance.worstChannel <= 5 && abs(Self.bias(png.rgb, reference)) <= 1.5, "\(distance)")
        let request = StoryboardRequest(streamIndex: clip.video.index, duration: 2, interval: 1, columns: 2, rows: 1,
                                        tileWidth: 160, tileHeight: 90, format: .png)
        let sheet = try StoredPNG(service.storyboardSheet(of: clip.file, request: request, sheet: 0))
        let tile = sheet.region(x: 160, y: 0, width: 160, height: 90)
        let tileReference = try ToneMapReference.frame(clip.file.path.string, at: 1.0, width: 160, height: 90, toneMapped: false)
        let tileDistance = ColorDistance(tile.rgb, tileReference)
        // The tile's keyframe skips H.264's loop filter, and is shrunk by area averaging.
        #expect(tileDistance.worstChannel <= 8 && abs(Self.bias(tile.rgb, tileReference)) <= 1.5, "\(tileDistance)")
    }

    /// The mean signed difference of `a` from `b`.
    static func bias(_ a: [UInt8], _ b: [UInt8]) -> Double {
        zip(a, b).reduce(0.0) { $0 + Double(Int($1.0) - Int($1.1)) } / Double(max(1, b.count))
    }
}
