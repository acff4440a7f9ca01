import CAV

/// Turns frames of Dolby Vision without a compatible base layer (profile 5: IPTPQc2 values that
/// only the RPU turns into colours) into SDR BT.709 RGB at a given size, in three steps:
///
/// 1. swscale brings the frame to the output size in 16-bit 4:4:4, values kept as they are (no
///    matrix, no range conversion: the planes are I, P and T, not Y, Cb and Cr);
/// 2. `DolbyVisionReshaper` applies the frame's RPU (`DolbyVisionMetadata`, or the standard
///    profile 5 matrices without reshaping where the frame has none), giving PQ BT.2020 R'G'B';
/// 3. `ToneMapper` tone-maps that as any PQ picture, its peak the RPU's mastering display peak
///    (given to libavfilter's `tonemap` as mastering display side data).
///
/// Reshaping is per pixel, so doing it after the scaling changes only pixels at edges, where the
/// scaler mixes base layer values instead of reshaped ones (measured in Docs/ARCHITECTURE.md; the
/// same reasoning as `ToneMapper`'s), and it costs what the output's pixels cost, not what a 4K
/// frame's would. Owns its swscale context (freed in `deinit`); used by one thread at a time, as
/// the `PictureConverter` that owns it.
final class DolbyVisionConverter {
    private var shrink: OpaquePointer?
    private var reshaper: (metadata: DolbyVisionMetadata, reshaper: DolbyVisionReshaper)?

    init() {}

    deinit { sws_freeContext(shrink) }

    /// The colours of the reshaped picture `reshaped(_:width:height:)` gives.
    static let reshapedColor = ColorDescription(range: AVCOL_RANGE_JPEG, space: AVCOL_SPC_RGB,
                                                transfer: AVCOL_TRC_SMPTE2084, primaries: AVCOL_PRI_BT2020)

    /// `frame` as `width` × `height` SDR RGB, tone-mapped by `toneMapper`.
    /// - Throws: `MediaError.imageFailed` (swscale cannot read the frame), `.library` (a frame
    ///   cannot be allocated, the tone mapper's graph failed).
    func picture(of frame: Frame, width: Int, height: Int, toneMapper: ToneMapper) throws -> RGBImage {
        let reshaped = try reshaped(frame, width: width, height: height)
        return try toneMapper.convert(reshaped, color: Self.reshapedColor, width: width, height: height)
    }

    /// `frame` scaled to `width` × `height` and reshaped: 16-bit planar R'G'B' (`gbrp16le`), PQ,
    /// BT.2020 primaries, full range, with the mastering display's peak as side data.
    func reshaped(_ frame: Frame, width: Int, height: Int) throws -> Frame {
        let metadata = DolbyVisionMetadata(frame.pointer) ?? .profile5
        if reshaper?.metadata != metadata { reshaper = (metadata, DolbyVisionReshaper(metadata)) }
        guard let reshaper = reshaper?.reshaper else { preconditionFailure("no reshaper") }

        let scaled = try scale(frame, width: width, height: height)
        // swscale widens by shifting (10-bit 1023 is 65472): the base layer's largest code is 1.
        let depth = Int(av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointer.pointee.format))?.pointee.comp.0.depth ?? 16)
        let scale = 1 / Float(((1 << depth) - 1) << (16 - min(depth, 16)))
        let out = try Self.frame(AV_PIX_FMT_GBRP16LE, width: width, height: height)
        let s = scaled.pointer.pointee, o = out.pointer.pointee
        guard let y = s.data.0, let cb = s.data.1, let cr = s.data.2,
              let green = o.data.0, let blue = o.data.1, let red = o.data.2 else {
            throw MediaError.imageFailed(reason: "a frame without its planes")
        }
        for row in 0..<height {
            func line(_ plane: UnsafeMutablePointer<UInt8>, _ stride: Int32) -> UnsafeMutablePointer<UInt16> {
                UnsafeMutableRawPointer(plane + row * Int(stride)).assumingMemoryBound(to: UInt16.self)
            }
            reshaper.run(y: line(y, s.linesize.0), cb: line(cb, s.linesize.1), cr: line(cr, s.linesize.2), count: width,
                         scale: scale, red: line(red, o.linesize.2), green: line(green, o.linesize.0), blue: line(blue, o.linesize.1))
        }
        let color = Self.reshapedColor
        out.pointer.pointee.color_range = color.range
        out.pointer.pointee.colorspace = color.space
        out.pointer.pointee.color_trc = color.transfer
        out.pointer.pointee.color_primaries = color.primaries
        if let peak = metadata.peakNits, let display = av_mastering_display_metadata_create_side_data(out.pointer) {
            display.pointee.has_luminance = 1
            display.pointee.max_luminance = av_make_q(Int32(peak.rounded()), 1)
            display.pointee.min_luminance = av_make_q(Int32((metadata.blackNits * 10_000).rounded()), 10_000)
        }
        return out
    }

    /// `frame` at `width` × `height` in `yuv444p16le`, each plane's values as they were (shifted
    /// to 16 bits). The corresponding C functions are `sws_getCachedContext`,
    /// `sws_setColorspaceDetails` and `sws_scale_frame`.
    private func scale(_ frame: Frame, width: Int, height: Int) throws -> Frame {
        let f = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: f.format)
        guard f.width > 0, f.height > 0, f.format >= 0, let descriptor = av_pix_fmt_desc_get(format),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) == 0,
              descriptor.pointee.nb_components >= 3 else {
            throw MediaError.imageFailed(reason: "a Dolby Vision frame that is not planar YUV (format \(f.format))")
        }
        // On failure sws_getCachedContext has freed the old context.
        shrink = sws_getCachedContext(shrink, f.width, f.height, format, Int32(width), Int32(height),
                                      AV_PIX_FMT_YUV444P16LE, SWS_BICUBIC | SWS_ACCURATE_RND, nil, nil, nil)
        guard let shrink else {
            throw MediaError.imageFailed(reason: "swscale cannot scale format \(f.format) \(f.width)x\(f.height) to \(width)x\(height)")
        }
        // The same range on both sides: swscale converts no value, only the bit depth.
        let coefficients = sws_getCoefficients(SWS_CS_DEFAULT)
        _ = sws_setColorspaceDetails(shrink, coefficients, 1, coefficients, 1, 0, 1 << 16, 1 << 16)
        let out = try Self.frame(AV_PIX_FMT_YUV444P16LE, width: width, height: height)
        try check(sws_scale_frame(shrink, out.pointer, frame.pointer), "sws_scale_frame")
        return out
    }

    /// A new frame with buffers. The corresponding C function is `av_frame_get_buffer`.
    private static func frame(_ format: AVPixelFormat, width: Int, height: Int) throws -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        try check(av_frame_get_buffer(frame.pointer, 64), "av_frame_get_buffer")
        return frame
    }
}
