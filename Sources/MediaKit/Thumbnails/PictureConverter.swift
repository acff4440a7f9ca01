import CAV

/// Turns a decoded frame of one stream into the 8-bit RGB picture a thumbnail shows, at the
/// requested size, as players show it: SDR frames through swscale (`Scaler`), frames whose
/// transfer is PQ or HLG tone-mapped to SDR BT.709 (`ToneMapper`, libavfilter), Dolby Vision
/// profile 5 frames reshaped by their RPU first (`DolbyVisionConverter`).
///
/// One per decode session: owns its scaler, tone mapper and Dolby Vision converter (made at the
/// first frame that needs them), each kept for the next frame of the same format and size. Used
/// by one thread at a time.
final class PictureConverter {
    /// The colours the stream's parameters give, for frames that leave some unspecified
    /// (the decoder may not repeat what the container says).
    let streamColor: ColorDescription
    /// Dolby Vision without a base layer players show (profile 5): reshaped by each frame's RPU
    /// into PQ BT.2020, then tone-mapped.
    let isDolbyVisionOnly: Bool
    private let scaler = Scaler()
    private var toneMapper: ToneMapper?
    private var dolbyVision: DolbyVisionConverter?

    /// For frames of `stream`: its colours and its Dolby Vision record, if any.
    convenience init(stream: UnsafeMutablePointer<AVStream>) {
        self.init(streamColor: ColorDescription(stream.pointee.codecpar.pointee),
                  isDolbyVisionOnly: StreamDescriber.dolbyVision(stream)?.compatibleBaseLayer == .incompatible)
    }

    init(streamColor: ColorDescription, isDolbyVisionOnly: Bool) {
        self.streamColor = streamColor
        self.isDolbyVisionOnly = isDolbyVisionOnly
    }

    /// `frame` as `width` × `height` RGB, before any turn of the display matrix.
    /// - Throws: `MediaError.imageFailed` (swscale cannot convert the frame, or the tone mapper
    ///   gave another size), `MediaError.library` (the filter graph failed).
    func picture(of frame: Frame, width: Int, height: Int) throws -> RGBImage {
        if isDolbyVisionOnly {
            let mapper = toneMapper ?? ToneMapper(), converter = dolbyVision ?? DolbyVisionConverter()
            (toneMapper, dolbyVision) = (mapper, converter)
            return try converter.picture(of: frame, width: width, height: height, toneMapper: mapper)
        }
        guard let color = toneMappedColor(of: frame) else {
            return try scaler.scale(frame, width: width, height: height)
        }
        let mapper = toneMapper ?? ToneMapper()
        toneMapper = mapper
        return try mapper.convert(frame, color: color, width: width, height: height)
    }

    /// The colours `frame` is tone-mapped from, nothing unspecified; nil for an SDR frame.
    func toneMappedColor(of frame: Frame) -> ColorDescription? {
        var color = ColorDescription(frame.pointer.pointee).filled(from: streamColor)
        if color.hdrTransfer == nil {
            guard isDolbyVisionOnly else { return nil }
            color.transfer = AVCOL_TRC_SMPTE2084
        }
        return color.filled(from: ToneMapper.assumed)
    }
}
