import CAV

/// Scales SDR frames down to tiles in two swscale steps, for the many small pictures of a sheet:
/// first in YUV (4:4:4, area averaging, accurate rounding) from the frame's size to the tile's,
/// then to RGB at the tile's size through `Scaler` (the thumbnails' flags: full chroma
/// interpolation). The expensive part of the thumbnails' one-step conversion, interpolating
/// chroma for every pixel of the source, is then done on the tile's pixels only: about three
/// times faster at a tile's size, a little softer than the thumbnails' conversion (the area
/// average is a box filter; bicubic in this first step was sharper and slower).
///
/// Frames that are not planar YUV (RGB, palettes), or that shrink less than twice, go through
/// `Scaler` in one step. Owns its swscale context (freed in `deinit`), its `Scaler` and its
/// intermediate frame; used by one thread at a time.
final class TileScaler {
    private var shrink: OpaquePointer?
    private let convert = Scaler()

    init() {}

    deinit { sws_freeContext(shrink) }

    /// `frame` as `width` × `height` RGB, before any turn of the display matrix.
    /// - Throws: `MediaError.imageFailed` when swscale cannot convert the frame,
    ///   `MediaError.library` when the intermediate frame cannot be allocated.
    func scale(_ frame: Frame, width: Int, height: Int) throws -> RGBImage {
        let f = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: f.format)
        guard f.format >= 0, let descriptor = av_pix_fmt_desc_get(format),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) == 0,
              descriptor.pointee.nb_components >= 3, Int(f.width) >= 2 * width, Int(f.height) >= 2 * height else {
            return try convert.scale(frame, width: width, height: height)
        }
        let deep = descriptor.pointee.comp.0.depth > 8
        let middle = try Frame()
        let m = middle.pointer
        m.pointee.format = (deep ? AV_PIX_FMT_YUV444P16LE : AV_PIX_FMT_YUV444P).rawValue
        m.pointee.width = Int32(width)
        m.pointee.height = Int32(height)
        try check(av_frame_get_buffer(m, 64), "av_frame_get_buffer")
        // The matrix and range the one-step conversion would use, said explicitly: a guess from
        // the size would be made again at the tile's size, and a `yuvj` format's full range
        // would be lost in plain 4:4:4.
        let fullRange = Scaler.isFullRange(f.color_range, format)
        m.pointee.colorspace = f.colorspace != AVCOL_SPC_UNSPECIFIED ? f.colorspace
            : (f.width >= 1280 || f.height > 576 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M)
        m.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG

        shrink = sws_getCachedContext(shrink, f.width, f.height, format, Int32(width), Int32(height),
                                      AVPixelFormat(rawValue: m.pointee.format), SWS_AREA | SWS_ACCURATE_RND,
                                      nil, nil, nil)
        guard let shrink else {
            throw MediaError.imageFailed(reason: "swscale cannot scale format \(f.format) \(f.width)x\(f.height) to \(width)x\(height)")
        }
        // YUV to YUV, values kept as they are (no range conversion).
        let range: Int32 = fullRange ? 1 : 0
        let coefficients = sws_getCoefficients(Scaler.matrix(m.pointee.colorspace, width: f.width, height: f.height))
        _ = sws_setColorspaceDetails(shrink, coefficients, range, coefficients, range, 0, 1 << 16, 1 << 16)
        var source = f.data, sourceStrides = f.linesize
        var target = m.pointee.data, targetStrides = m.pointee.linesize
        let lines = withUnsafePointer(to: &source) { planes in
            planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                withUnsafePointer(to: &sourceStrides) { strides in
                    strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        withUnsafeMutablePointer(to: &target) { outs in
                            outs.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { outs in
                                withUnsafePointer(to: &targetStrides) { outStrides in
                                    outStrides.withMemoryRebound(to: Int32.self, capacity: 8) { outStrides in
                                        sws_scale(shrink, planes, strides, 0, f.height, outs, outStrides)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard lines == Int32(height) else {
            throw MediaError.imageFailed(reason: "sws_scale wrote \(lines) of \(height) lines")
        }
        return try convert.scale(middle, width: width, height: height)
    }
}
