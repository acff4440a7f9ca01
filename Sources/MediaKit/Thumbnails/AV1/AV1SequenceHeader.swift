/// The fields of an AV1 sequence header (specification section 5.5) that the uncompressed frame
/// header depends on up to `refresh_frame_flags` (section 5.9.2); the rest is read past or not
/// read at all.
struct AV1SequenceHeader {
    var reducedStillPictureHeader = false
    var decoderModelInfoPresent = false
    /// `equal_picture_interval` of the timing info (false without timing info).
    var equalPictureInterval = false
    /// `buffer_removal_time_length_minus_1 + 1`.
    var bufferRemovalTimeLength = 0
    /// `frame_presentation_time_length_minus_1 + 1`.
    var framePresentationTimeLength = 0
    /// Per operating point: `operating_point_idc` and `decoder_model_present_for_this_op`.
    var operatingPoints: [(idc: UInt32, hasDecoderModel: Bool)] = []
    var frameIDNumbersPresent = false
    /// `idLen`: `additional_frame_id_length_minus_1 + delta_frame_id_length_minus_2 + 3`.
    var frameIDLength = 0
    /// `seq_force_screen_content_tools` and `seq_force_integer_mv`; 2 is SELECT (a frame says).
    var forceScreenContentTools: UInt32 = 2
    var forceIntegerMV: UInt32 = 2
    /// `OrderHintBits` (0 without order hints).
    var orderHintBits = 0

    static let select: UInt32 = 2


    /// Reads a sequence header OBU's payload (`sequence_header_obu()`).
    /// - Throws: `AV1BitReader.Truncated`.
    init(payload: UnsafeRawBufferPointer) throws {
        var r = AV1BitReader(payload)
        try r.skip(3)  // seq_profile
        try r.skip(1)  // still_picture
        reducedStillPictureHeader = try r.flag()
        var bufferDelayLength = 0
        if reducedStillPictureHeader {
            try r.skip(5)  // seq_level_idx[0]
            operatingPoints = [(idc: 0, hasDecoderModel: false)]
        } else {
            if try r.flag() {  // timing_info_present_flag: timing_info()
                try r.skip(64)  // num_units_in_display_tick, time_scale
                equalPictureInterval = try r.flag()
                if equalPictureInterval { _ = try r.uvlc() }  // num_ticks_per_picture_minus_1
                decoderModelInfoPresent = try r.flag()
                if decoderModelInfoPresent {  // decoder_model_info()
                    bufferDelayLength = Int(try r.bits(5)) + 1
                    try r.skip(32)  // num_units_in_decoding_tick
                    bufferRemovalTimeLength = Int(try r.bits(5)) + 1
                    framePresentationTimeLength = Int(try r.bits(5)) + 1
                }
            }
            let initialDisplayDelayPresent = try r.flag()
            let count = Int(try r.bits(5)) + 1
            for _ in 0..<count {
                let idc = try r.bits(12)
                let level = try r.bits(5)
                if level > 7 { try r.skip(1) }  // seq_tier
                var hasDecoderModel = false
                if decoderModelInfoPresent {
                    hasDecoderModel = try r.flag()
                    // operating_parameters_info(): decoder and encoder buffer delays, low_delay_mode_flag
                    if hasDecoderModel { try r.skip(2 * bufferDelayLength + 1) }
                }
                if initialDisplayDelayPresent, try r.flag() { try r.skip(4) }
                operatingPoints.append((idc: idc, hasDecoderModel: hasDecoderModel))
            }
        }
        let widthBits = Int(try r.bits(4)) + 1
        let heightBits = Int(try r.bits(4)) + 1
        try r.skip(widthBits + heightBits)  // max_frame_width_minus_1, max_frame_height_minus_1
        if !reducedStillPictureHeader {
            frameIDNumbersPresent = try r.flag()
        }
        if frameIDNumbersPresent {
            let delta = Int(try r.bits(4)) + 2
            let additional = Int(try r.bits(3)) + 1
            frameIDLength = delta + additional
        }
        try r.skip(3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
        if !reducedStillPictureHeader {
            try r.skip(4)  // enable_interintra_compound, _masked_compound, _warped_motion, _dual_filter
            let enableOrderHint = try r.flag()
            if enableOrderHint { try r.skip(2) }  // enable_jnt_comp, enable_ref_frame_mvs
            forceScreenContentTools = try r.flag() ? Self.select : try r.bits(1)
            if forceScreenContentTools > 0 {
                forceIntegerMV = try r.flag() ? Self.select : try r.bits(1)
            } else {
                forceIntegerMV = Self.select
            }
            if enableOrderHint { orderHintBits = Int(try r.bits(3)) + 1 }
        }
    }
}
