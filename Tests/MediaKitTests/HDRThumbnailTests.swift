import Foundation
import CAV
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Thumbnails of HDR video (clips/hdr-pq.mkv, clips/hdr-hlg.mkv: 10-bit HEVC, BT.2020, 640×360,
/// 25 fps, a keyframe every second; see scripts/make-media.sh) are tone-mapped as the ffmpeg
/// command's usual chain does it; SDR ones are what swscale made before.
@Suite struct HDRThumbnailTests {
    /// The colour distance is the mean absolute difference of each channel against the reference
    /// (`ToneMapReference.tolerance`), and against the picture made without tone mapping (what
    /// the code made before: swscale with the frame's BT.2020 matrix).
    @Test(arguments: ["clips/hdr-pq.mkv", "clips/hdr-hlg.mkv"])
    func hdrFramesAreToneMapped(_ path: String) throws {
        let clip = try LibraryVideo(path)
        let (_, png, index) = try clip.thumbnail(LocalMediaService(), at: 1.0)
        #expect(png.width == 320 && png.height == 180 && index == 25)
        let reference = try ToneMapReference.frame(clip.file.path.string, at: 1.0, width: 320, height: 180)
        let distance = ColorDistance(png.rgb, reference)
        #expect(distance.worstChannel <= ToneMapReference.tolerance, "\(path): \(distance)")

        let untoneMapped = try Self.swscaleOnly(clip, at: 1.0, width: 320, height: 180)
        let far = ColorDistance(png.rgb, untoneMapped)
        #expect(far.mean >= ToneMapReference.untoneMappedDistance, "\(path): \(far)")
        print("\(path) at 1 s, 320x180: against the ffmpeg chain \(distance); against no tone mapping \(far)")
    }

    /// At the full size too (the graph then scales nothing), and again from the same session:
    /// the graph kept for the session gives the same picture.
    @Test func fullSizeAndAKeptGraph() throws {
        let clip = try LibraryVideo("clips/hdr-pq.mkv")
        let service = LocalMediaService()
        let (_, first, _) = try clip.thumbnail(service, at: 1.0, box: .full)
        #expect(first.width == 640 && first.height == 360)
        let reference = try ToneMapReference.frame(clip.file.path.string, at: 1.0, width: 640, height: 360)
        let distance = ColorDistance(first.rgb, reference)
        #expect(distance.worstChannel <= ToneMapReference.tolerance, "\(distance)")
        let small = try clip.thumbnail(service, at: 1.0)
        let again = try clip.thumbnail(service, at: 1.0, box: .full)
        #expect(again.png.rgb == first.rgb)
        #expect(small.png.width == 320 && small.index == 25)
        #expect(service.thumbnails.statistics.sessionsOpened == 1)
    }

    /// SDR frames take the swscale path, byte for byte what `Scaler` alone makes.
    @Test(arguments: ["feature-1080p.mp4", "clips/clip-hevc10.mkv", "clips/anamorphic-pal.mpg"])
    func sdrFramesAreUnchanged(_ path: String) throws {
        let clip = try LibraryVideo(path)
        let request = try clip.request(1.0)
        let thumbnail = try LocalMediaService().thumbnail(of: clip.file, request: request)
        let scaled = try Self.swscaleOnly(clip, at: 1.0, width: request.width, height: request.height)
        #expect(try StoredPNG(thumbnail.bytes).rgb == scaled)
    }

    /// The converter's choice: PQ and HLG frames are tone-mapped, colours the frame leaves
    /// unspecified come from the stream, then BT.2020 limited range.
    @Test func whichFramesAreToneMapped() throws {
        for (path, transfer) in [("clips/hdr-pq.mkv", AVCOL_TRC_SMPTE2084), ("clips/hdr-hlg.mkv", AVCOL_TRC_ARIB_STD_B67)] {
            let (session, frame) = try Self.frame(try LibraryVideo(path), at: 0.5)
            let color = try #require(session.converter.toneMappedColor(of: frame))
            #expect(color == ColorDescription(range: AVCOL_RANGE_MPEG, space: AVCOL_SPC_BT2020_NCL, transfer: transfer,
                                              primaries: AVCOL_PRI_BT2020))
        }
        let (sdr, frame) = try Self.frame(try LibraryVideo("clips/clip-hevc10.mkv"), at: 0.5)
        #expect(sdr.converter.toneMappedColor(of: frame) == nil)
        // Dolby Vision without a compatible base layer (profile 5) is taken as PQ, whatever the
        // frame says of its transfer; this frame's limited range and BT.709 matrix are kept.
        let dolbyVisionOnly = PictureConverter(streamColor: sdr.converter.streamColor, isDolbyVisionOnly: true)
        #expect(dolbyVisionOnly.toneMappedColor(of: frame) == ColorDescription(
            range: AVCOL_RANGE_MPEG, space: AVCOL_SPC_BT709, transfer: AVCOL_TRC_SMPTE2084, primaries: AVCOL_PRI_BT2020))
        let unlabelled = ColorDescription(range: AVCOL_RANGE_UNSPECIFIED, space: AVCOL_SPC_UNSPECIFIED,
                                          transfer: AVCOL_TRC_SMPTE2084, primaries: AVCOL_PRI_UNSPECIFIED)
        #expect(unlabelled.filled(from: ToneMapper.assumed) == ToneMapper.assumed)
    }

    /// The graph for a 4K PQ frame asked at 320×180 scales first, in 16-bit 4:4:4, keeping the
    /// range, and says every colour the frame comes with, output primaries included.
    @Test func theGraphScalesBeforeToneMapping() {
        let setup = ToneMapper.Setup(width: 3840, height: 2160, format: AV_PIX_FMT_YUV420P10LE, color: ToneMapper.assumed,
                                     outputWidth: 320, outputHeight: 180)
        #expect(ToneMapper.description(for: setup) == "scale=w=320:h=180:flags=bicubic+accurate_rnd+full_chroma_int"
            + ":in_range=limited:out_range=limited,"
            + "format=yuv444p16le,zscale=tin=16:min=9:pin=9:rin=limited:t=linear:npl=100:p=9,format=gbrpf32le,"
            + "zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=gbrp,format=rgb24")
    }

    /// A description libavfilter cannot build is a typed error naming the call, not a crash.
    @Test func aBadGraphIsALibraryError() {
        #expect {
            _ = try FilterGraph(description: "nosuchfilter", width: 64, height: 36, format: AV_PIX_FMT_YUV420P10LE)
        } throws: { error in
            guard case MediaError.library(let function, _, _) = error else { return false }
            return function == "avfilter_graph_parse_ptr"
        }
    }

    /// A session's frame at `time`.
    static func frame(_ clip: LibraryVideo, at time: Double) throws -> (DecodeSession, Frame) {
        let key = DecodeSession.Key(file: clip.file, streamIndex: clip.video.index, pick: .exact)
        let session = try DecodeSession(key: key, limits: ThumbnailLimits())
        return (session, try session.exactFrame(at: time))
    }

    /// The frame at `time` as swscale alone converts it (what thumbnails of every frame were
    /// before tone mapping), in tight RGB rows.
    static func swscaleOnly(_ clip: LibraryVideo, at time: Double, width: Int, height: Int) throws -> [UInt8] {
        let (_, frame) = try frame(clip, at: time)
        let image = try Scaler().scale(frame, width: width, height: height)
        return (0..<height).flatMap { y in image.pixels[y * image.stride ..< y * image.stride + 3 * width] }
    }
}
