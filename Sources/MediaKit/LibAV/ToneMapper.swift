import CAV

/// Turns HDR frames (PQ or HLG transfer, any primaries) into SDR BT.709 RGB at a given size, as
/// players show them, with libavfilter: the chain the ffmpeg command's users run to tone-map,
///
///     zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv
///
/// run at the output size, after swscale has brought the frame there (see `description(for:)`).
/// The one owner of the `FilterGraph`, kept while frames come in the same format, colours and
/// output size, and built again when one of them changes; freed with the mapper.
final class ToneMapper {
    /// What a graph is built for.
    struct Setup: Equatable {
        var width: Int32
        var height: Int32
        var format: AVPixelFormat
        /// The frame's colours, nothing unspecified; the transfer is PQ or HLG.
        var color: ColorDescription
        var outputWidth: Int
        var outputHeight: Int
    }

    private var graph: FilterGraph?
    private var setup: Setup?

    init() {}

    /// `frame`, whose colours are `color` (resolved: what the frame or its stream says, else
    /// `ToneMapper.assumed`), tone-mapped to 8-bit BT.709 RGB of `width` × `height`.
    /// - Throws: `MediaError.library` when the graph cannot be built or run,
    ///   `MediaError.imageFailed` when it gives a picture of another size.
    func convert(_ frame: Frame, color: ColorDescription, width: Int, height: Int) throws -> RGBImage {
        let f = frame.pointer.pointee
        guard f.width > 0, f.height > 0, f.format >= 0 else {
            throw MediaError.imageFailed(reason: "the decoder gave a frame without a size or format")
        }
        let wanted = Setup(width: f.width, height: f.height, format: AVPixelFormat(rawValue: f.format), color: color,
                           outputWidth: width, outputHeight: height)
        if wanted != setup || graph == nil {
            graph = nil
            setup = nil
            graph = try FilterGraph(description: Self.description(for: wanted), width: wanted.width,
                                    height: wanted.height, format: wanted.format)
            setup = wanted
        }
        guard let graph else { preconditionFailure("a tone mapper without its graph") }
        let out: Frame
        do {
            out = try graph.filter(frame)
        } catch {
            // A graph that failed may hold a frame back: the next one is built afresh.
            self.graph = nil
            setup = nil
            throw error
        }
        let o = out.pointer.pointee
        guard o.width == Int32(width), o.height == Int32(height), o.format == AV_PIX_FMT_RGB24.rawValue,
              let data = o.data.0 else {
            throw MediaError.imageFailed(
                reason: "tone mapping gave a \(o.width)x\(o.height) picture in format \(o.format), not RGB \(width)x\(height)")
        }
        let row = 3 * width, stride = Int(o.linesize.0)
        var pixels = [UInt8](repeating: 0, count: row * height)
        pixels.withUnsafeMutableBytes { to in
            for y in 0..<height {
                (to.baseAddress! + y * row).copyMemory(from: data + y * stride, byteCount: row)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Colours a PQ or HLG frame is taken to have where neither it nor its stream says:
    /// BT.2020 (non-constant luminance matrix and primaries), limited range.
    static let assumed = ColorDescription(range: AVCOL_RANGE_MPEG, space: AVCOL_SPC_BT2020_NCL,
                                          transfer: AVCOL_TRC_SMPTE2084, primaries: AVCOL_PRI_BT2020)

    /// The filters for `setup`:
    ///
    /// 1. `scale` (swscale, the flags of `Scaler`) to the output size, in 16-bit 4:4:4 so that
    ///    chroma keeps the output's resolution; values stay PQ- or HLG-coded, in the frame's
    ///    range (said both ways: swscale's default output range is limited, whatever the
    ///    input's, which zscale would then read as full). Tone mapping is
    ///    per pixel, so doing it after the scaling instead of before changes only pixels at
    ///    edges, where the scaler mixes coded instead of displayed values, and costs what the
    ///    output's pixels cost, not what a 4K frame's would.
    /// 2. The usual chain: `zscale` to linear light (100 nits at 1.0; the frame's transfer,
    ///    matrix, primaries and range given explicitly, and the output's primaries, which zscale
    ///    takes from the frame's labels, not from `pin`: so nothing unspecified reaches zimg),
    ///    32-bit float RGB, `zscale` to BT.709 primaries, `tonemap` (Hable, no desaturation; its
    ///    peak from the frame's content light level or mastering display side data, else 1,000
    ///    nits, as in the ffmpeg command), `zscale` to the BT.709 transfer.
    /// 3. `format=gbrp,format=rgb24`: zscale writes 8-bit planar RGB (full range), repacked.
    ///
    /// zscale's options take libavutil's `AVCOL_*` values as numbers; range is 0 limited, 1 full.
    static func description(for setup: Setup) -> String {
        let isRGB = (av_pix_fmt_desc_get(setup.format)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let scaled = isRGB ? "gbrp16le" : "yuv444p16le"
        let c = setup.color
        let range = c.range == AVCOL_RANGE_JPEG ? "full" : "limited"
        return "scale=w=\(setup.outputWidth):h=\(setup.outputHeight):flags=bicubic+accurate_rnd+full_chroma_int"
            + ":in_range=\(range):out_range=\(range),"
            + "format=\(scaled),"
            + "zscale=tin=\(c.transfer.rawValue):min=\(c.space.rawValue):pin=\(c.primaries.rawValue):rin=\(range)"
            + ":t=linear:npl=100:p=\(c.primaries.rawValue),format=gbrpf32le,"
            + "zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,"
            + "format=gbrp,format=rgb24"
    }
}
