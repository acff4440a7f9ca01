import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Frame-accurate thumbnails of AV1 leave out the packets no later frame refers to
/// (`AV1TemporalUnits`), and still show the frame asked for, the very picture ffmpeg decodes.
@Suite(.enabled(if: AV1Fixture.missing == nil, "\(AV1Fixture.missing ?? "")"))
struct AV1SkippingTests {
    static let fps = AV1Fixture.fps

    /// Each frame of the first two seconds, asked for on its time and between frames, by a new
    /// service each time (a seek to the keyframe before, then decoding forward).
    @Test(arguments: ["clip.mkv", "clip.mp4"])
    func everyFrameIsTheOneAsked(name: String) throws {
        let clip = try AV1Fixture.video(name)
        for frame in 0..<50 {
            for time in [Double(frame) / Self.fps, (Double(frame) + 0.5) / Self.fps] {
                let (thumbnail, _, index) = try clip.thumbnail(LocalMediaService(), at: time)
                #expect(index == frame, "\(name) at \(time)")
                #expect(abs(thumbnail.frameTime - Double(frame) / Self.fps) < 1e-6, "\(name) at \(time)")
            }
        }
    }

    /// The pictures are ffmpeg's, decoding every frame: whole frames, late in a GOP (after
    /// many frames were left out), equal byte for byte to ffmpeg's converted with the mount's
    /// swscale flags (`Scaler.flags`).
    @Test func picturesAreFFmpegsFullDecoding() throws {
        let clip = try AV1Fixture.video("clip.mkv")
        let path = clip.file.path.string
        for frame in [15, 23, 24, 47, 62] {
            let time = Double(frame) / Self.fps
            let (_, png, index) = try clip.thumbnail(LocalMediaService(), at: time, box: .full)
            #expect(index == frame && png.width == 640 && png.height == 360)
            let reference = try FFmpegFrames.run(["-v", "error", "-ss", String(time), "-i", path, "-frames:v", "1", "-vf",
                                                  "scale=640:360:flags=bicubic+accurate_rnd+full_chroma_int",
                                                  "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            #expect(png.rgb == reference, "frame \(frame): \(ThumbnailTests.meanDifference(png.rgb, reference)) from ffmpeg's")
        }
    }

    /// On the way to a time late in a GOP, the unreferenced frames are not decoded: fewer frames
    /// come out of the decoder than are shown up to the time.
    @Test func framesNoneReferToAreNotDecoded() throws {
        let clip = try AV1Fixture.video("clip.mkv")
        let service = LocalMediaService()
        #expect(try clip.thumbnail(service, at: 24 / Self.fps).index == 24)
        let cost = service.thumbnails.statistics
        #expect(cost.seeks == 1)
        // 25 frames are shown from the keyframe to frame 24; those left out never come out.
        #expect(cost.framesDecoded <= 20, "\(cost.framesDecoded) frames decoded")
    }

    /// Where frames are further apart than the stream's rate says, the last frame before the time
    /// can be one left out: the request decodes again, every frame, and shows it.
    @Test func aFrameLeftOutThatIsTheAnswerIsDecoded() throws {
        let clip = try AV1Fixture.video("gap.mp4")
        let path = clip.file.path.string
        let types = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pict_type",
                                     "-of", "csv=p=0", path], timeout: 60)
        #expect(types.stdout.split(separator: "\n").dropFirst(28).prefix(2) == ["P", "B"], "frame 29 is a B-frame after a P")
        let service = LocalMediaService()
        for (time, expected) in [(1.66, 29), (2.1, 29), (1.14, 28), (2.2, 30)] {
            #expect(try clip.thumbnail(service, at: time).index == expected, "at \(time)")
            #expect(try clip.thumbnail(LocalMediaService(), at: time).index == expected, "at \(time) alone")
        }
    }
}
