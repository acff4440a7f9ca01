import CAV

/// How a picture's values stand for light, as libavcodec labels a stream or a frame: range,
/// matrix, transfer characteristic and primaries (`AVCOL_*`; any of them may be unspecified).
struct ColorDescription: Equatable {
    var range: AVColorRange
    var space: AVColorSpace
    var transfer: AVColorTransferCharacteristic
    var primaries: AVColorPrimaries

    /// What a stream's codec parameters say (from the container, or the bitstream's headers).
    init(_ parameters: AVCodecParameters) {
        range = parameters.color_range
        space = parameters.color_space
        transfer = parameters.color_trc
        primaries = parameters.color_primaries
    }

    /// What a decoded frame says.
    init(_ frame: AVFrame) {
        range = frame.color_range
        space = frame.colorspace
        transfer = frame.color_trc
        primaries = frame.color_primaries
    }

    init(range: AVColorRange, space: AVColorSpace, transfer: AVColorTransferCharacteristic,
         primaries: AVColorPrimaries) {
        self.range = range
        self.space = space
        self.transfer = transfer
        self.primaries = primaries
    }

    /// Each unspecified value taken from `other`.
    func filled(from other: ColorDescription) -> ColorDescription {
        ColorDescription(range: range == AVCOL_RANGE_UNSPECIFIED ? other.range : range,
                         space: space == AVCOL_SPC_UNSPECIFIED ? other.space : space,
                         transfer: transfer == AVCOL_TRC_UNSPECIFIED ? other.transfer : transfer,
                         primaries: primaries == AVCOL_PRI_UNSPECIFIED ? other.primaries : primaries)
    }

    /// The high dynamic range transfer, or nil for any other (SDR) transfer.
    var hdrTransfer: HDRTransfer? {
        switch transfer {
        case AVCOL_TRC_SMPTE2084: return .pq
        case AVCOL_TRC_ARIB_STD_B67: return .hlg
        default: return nil
        }
    }

    // ffprobe's names, nil where unspecified. The corresponding C functions are
    // `av_color_range_name`, `av_color_space_name`, `av_color_transfer_name` and `av_color_primaries_name`.
    var rangeName: String? {
        range == AVCOL_RANGE_UNSPECIFIED ? nil : av_color_range_name(range).map { String(cString: $0) }
    }
    var spaceName: String? {
        space == AVCOL_SPC_UNSPECIFIED ? nil : av_color_space_name(space).map { String(cString: $0) }
    }
    var transferName: String? {
        transfer == AVCOL_TRC_UNSPECIFIED ? nil : av_color_transfer_name(transfer).map { String(cString: $0) }
    }
    var primariesName: String? {
        primaries == AVCOL_PRI_UNSPECIFIED ? nil : av_color_primaries_name(primaries).map { String(cString: $0) }
    }
}

/// The two HDR transfer characteristics a picture is tone-mapped from.
enum HDRTransfer: Equatable {
    /// SMPTE ST 2084, perceptual quantizer (HDR10, HDR10+, the base layer of Dolby Vision 7 and 8.1).
    case pq
    /// ARIB STD-B67, hybrid log-gamma (broadcast HDR, phones).
    case hlg
}
