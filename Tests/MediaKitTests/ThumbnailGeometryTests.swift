@testable import MediaKit
import Testing

/// Sizes from the probe alone: display size, box, never enlarged, at least 1.
@Suite struct ThumbnailGeometryTests {
    func stream(_ width: Int?, _ height: Int?, sar: String? = nil, rotation: Double? = nil) -> MediaInfo.Stream {
        MediaInfo.Stream(index: 0, kind: .video, codec: "h264", codecLongName: nil, profile: nil,
                         width: width, height: height, sampleAspectRatio: sar, displayAspectRatio: nil,
                         pixelFormat: nil, rotation: rotation, frameRate: nil, averageFrameRate: nil,
                         sampleRate: nil, channels: nil, channelLayout: nil, bitRate: nil, startTime: nil,
                         duration: nil, frameCount: nil, language: nil, title: nil, disposition: [], tags: [:])
    }

    typealias Size = ThumbnailGeometry.Size

    @Test func boxesKeepTheAspect() {
        let hd = stream(1920, 1080)
        #expect(ThumbnailGeometry.outputSize(of: hd, box: .width(320)) == Size(width: 320, height: 180))
        #expect(ThumbnailGeometry.outputSize(of: hd, box: .height(180)) == Size(width: 320, height: 180))
        #expect(ThumbnailGeometry.outputSize(of: hd, box: .box(width: 640, height: 640)) == Size(width: 640, height: 360))
        #expect(ThumbnailGeometry.outputSize(of: hd, box: .box(width: 1000, height: 100)) == Size(width: 178, height: 100))
        #expect(ThumbnailGeometry.outputSize(of: hd, box: .full) == Size(width: 1920, height: 1080))
        // 1280×720 into 333 wide: 187.3 rounds to 187.
        #expect(ThumbnailGeometry.outputSize(of: stream(1280, 720), box: .width(333)) == Size(width: 333, height: 187))
    }

    @Test func neverEnlargedAndNeverBelowOnePixel() {
        let small = stream(320, 180)
        #expect(ThumbnailGeometry.outputSize(of: small, box: .width(1920)) == Size(width: 320, height: 180))
        #expect(ThumbnailGeometry.outputSize(of: small, box: .box(width: 4000, height: 4000)) == Size(width: 320, height: 180))
        #expect(ThumbnailGeometry.outputSize(of: stream(5000, 2), box: .width(100)) == Size(width: 100, height: 1))
        #expect(ThumbnailGeometry.outputSize(of: stream(2, 5000), box: .height(100)) == Size(width: 1, height: 100))
    }

    @Test func sampleAspectRatioStretchesTheWidth() {
        let pal = stream(720, 576, sar: "64:45")
        #expect(ThumbnailGeometry.displaySize(of: pal) == Size(width: 1024, height: 576))
        #expect(ThumbnailGeometry.outputSize(of: pal, box: .width(320)) == Size(width: 320, height: 180))
        #expect(ThumbnailGeometry.outputSize(of: pal, box: .full) == Size(width: 1024, height: 576))
        // NTSC 4:3 (SAR 8:9) narrows it.
        #expect(ThumbnailGeometry.displaySize(of: stream(720, 480, sar: "8:9")) == Size(width: 640, height: 480))
        // A malformed ratio is ignored.
        #expect(ThumbnailGeometry.displaySize(of: stream(720, 576, sar: "0:1")) == Size(width: 720, height: 576))
    }

    @Test func quarterTurnsSwapTheSides() {
        #expect(ThumbnailGeometry.clockwiseQuarterTurns(rotation: -90) == 1)
        #expect(ThumbnailGeometry.clockwiseQuarterTurns(rotation: 90) == 3)
        #expect(ThumbnailGeometry.clockwiseQuarterTurns(rotation: 180) == 2)
        #expect(ThumbnailGeometry.clockwiseQuarterTurns(rotation: -180) == 2)
        #expect(ThumbnailGeometry.clockwiseQuarterTurns(rotation: nil) == 0)
        let phone = stream(1920, 1080, rotation: -90)
        #expect(ThumbnailGeometry.displaySize(of: phone) == Size(width: 1080, height: 1920))
        #expect(ThumbnailGeometry.outputSize(of: phone, box: .width(320)) == Size(width: 320, height: 569))
        #expect(ThumbnailGeometry.outputSize(of: phone, box: .box(width: 320, height: 320)) == Size(width: 180, height: 320))
        #expect(ThumbnailGeometry.displaySize(of: stream(1920, 1080, rotation: 180)) == Size(width: 1920, height: 1080))
        // Rotation applies after the sample aspect ratio: 720×576 at 64:45, turned, is 576×1024.
        #expect(ThumbnailGeometry.displaySize(of: stream(720, 576, sar: "64:45", rotation: 90)) == Size(width: 576, height: 1024))
    }

    @Test func noSizeNoThumbnail() {
        #expect(ThumbnailGeometry.outputSize(of: stream(nil, nil), box: .width(320)) == nil)
        #expect(ThumbnailGeometry.outputSize(of: stream(0, 0), box: .full) == nil)
        #expect(ThumbnailGeometry.outputSize(of: stream(640, 360), box: .width(0)) == nil)
        #expect(ThumbnailGeometry.outputSize(of: stream(640, 360), box: .box(width: 10, height: -1)) == nil)
    }

    @Test func hugeDisplaysAreCappedToWhatPNGEncoderTakes() {
        let size = ThumbnailGeometry.outputSize(of: stream(30_000, 1000), box: .full)
        #expect(size == Size(width: PNGEncoder.maximumSide, height: 546))
    }
}
