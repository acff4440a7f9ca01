import CAV

/// Turns decoded frames into 8-bit RGB at a given size: the one owner of a `SwsContext`, kept
/// between frames of the same format and size, freed in `deinit`.
///
/// Colour: the frame's matrix (BT.601, BT.709, BT.2020, …) and range (limited or full) are
/// applied per frame. A frame that does not say which matrix it uses gets what players assume:
/// BT.709 from 1280 wide or above 576 lines, BT.601 below. Any pixel format swscale reads
/// (10-bit, 4:2:2, 4:4:4, RGB, palettes) works.
final class Scaler {
    /// Bicubic, with accurate rounding and full chroma interpolation: a thumbnail is made once
    /// and looked at, so quality beats the last millisecond.
    static let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT

    /// The swscale flags this scaler uses (`Scaler.flags` unless made with others).
    let flags: Int32
    private var context: OpaquePointer?

    init(flags: Int32 = Scaler.flags) {
        self.flags = flags
    }

    deinit { sws_freeContext(context) }

    /// `frame` scaled to `width` × `height` RGB24, rows 64-byte aligned.
    /// The corresponding C functions are `sws_getCachedContext`, `sws_setColorspaceDetails`
    /// and `sws_scale`.
    /// - Throws: `MediaError.imageFailed` if swscale cannot convert the frame's format.
    func scale(_ frame: Frame, width: Int, height: Int) throws -> RGBImage {
        let f = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: f.format)
        guard f.width > 0, f.height > 0, f.format >= 0 else {
            throw MediaError.imageFailed(reason: "the decoder gave a frame without a size or format")
        }
        // On failure sws_getCachedContext has freed the old context.
        context = sws_getCachedContext(context, f.width, f.height, format,
                                       Int32(width), Int32(height), AV_PIX_FMT_RGB24,
                                       flags, nil, nil, nil)
        guard let context else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "format \(f.format)"
            throw MediaError.imageFailed(reason: "swscale cannot convert \(name) \(f.width)x\(f.height) to RGB \(width)x\(height)")
        }
        let matrix = Scaler.matrix(f.colorspace, width: f.width, height: f.height)
        let fullRange: Int32 = Scaler.isFullRange(f.color_range, format) ? 1 : 0
        // Fails (harmlessly) for sources that are not YUV; the output is full-range RGB.
        _ = sws_setColorspaceDetails(context, sws_getCoefficients(matrix), fullRange,
                                     sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)

        var image = RGBImage(width: width, height: height, alignment: 64)
        var source = f.data
        var sourceStrides = f.linesize
        let stride = Int32(image.stride)
        let lines = image.pixels.withUnsafeMutableBufferPointer { out -> Int32 in
            var destination: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var destinationStrides: [Int32] = [stride, 0, 0, 0]
            return withUnsafePointer(to: &source) { planes in
                planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    withUnsafePointer(to: &sourceStrides) { strides in
                        strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                            sws_scale(context, planes, strides, 0, f.height, &destination, &destinationStrides)
                        }
                    }
                }
            }
        }
        guard lines == Int32(height) else {
            throw MediaError.imageFailed(reason: "sws_scale wrote \(lines) of \(height) lines")
        }
        return image
    }

    /// The swscale matrix (`SWS_CS_*`) for a frame's colour space.
    static func matrix(_ space: AVColorSpace, width: Int32, height: Int32) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        default: return width >= 1280 || height > 576 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    /// Full ("JPEG") range: said by the frame, or implied by the deprecated `yuvj*` formats.
    static func isFullRange(_ range: AVColorRange, _ format: AVPixelFormat) -> Bool {
        if range == AVCOL_RANGE_JPEG { return true }
        switch format {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P:
            return true
        default:
            return false
        }
    }
}
