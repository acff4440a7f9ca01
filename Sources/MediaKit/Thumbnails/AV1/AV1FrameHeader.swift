/// What the start of an AV1 uncompressed frame header (specification section 5.9.2) says about
/// the decoder's reference slots: the frame shows one decoded earlier (`show_existing_frame`),
/// or it is coded and stored into the slots `refresh_frame_flags` names (none: no later frame
/// can refer to it).
enum AV1FrameHeader: Equatable {
    case showsExisting
    case coded(refreshFrameFlags: UInt8)

    /// `refresh_frame_flags` of every slot (`allFrames`): a shown key frame and a switch frame.
    static let allFrames: UInt8 = 0xff

    private static let keyFrame: UInt32 = 0, intraOnlyFrame: UInt32 = 2, switchFrame: UInt32 = 3

    /// Reads a frame header OBU's payload (or an OBU_FRAME's, which starts with one) as far as
    /// `refresh_frame_flags`. `temporalID` and `spatialID` are the OBU's (0 without an extension
    /// header): they decide which operating points carry a `buffer_removal_time`.
    /// - Throws: `AV1BitReader.Truncated`.
    init(payload: UnsafeRawBufferPointer, sequence: AV1SequenceHeader, temporalID: Int = 0, spatialID: Int = 0) throws {
        if sequence.reducedStillPictureHeader {  // a shown key frame
            self = .coded(refreshFrameFlags: Self.allFrames)
            return
        }
        var r = AV1BitReader(payload)
        if try r.flag() {  // show_existing_frame
            self = .showsExisting
            return
        }
        let frameType = try r.bits(2)
        let frameIsIntra = frameType == Self.keyFrame || frameType == Self.intraOnlyFrame
        let showFrame = try r.flag()
        if showFrame && sequence.decoderModelInfoPresent && !sequence.equalPictureInterval {
            try r.skip(sequence.framePresentationTimeLength)  // temporal_point_info()
        }
        if !showFrame { try r.skip(1) }  // showable_frame
        if frameType == Self.switchFrame || (frameType == Self.keyFrame && showFrame) {
            self = .coded(refreshFrameFlags: Self.allFrames)
            return
        }
        let errorResilient = try r.flag()
        try r.skip(1)  // disable_cdf_update
        let allowScreenContentTools = sequence.forceScreenContentTools == AV1SequenceHeader.select
            ? try r.bits(1) : sequence.forceScreenContentTools
        if allowScreenContentTools > 0 && sequence.forceIntegerMV == AV1SequenceHeader.select {
            try r.skip(1)  // force_integer_mv
        }
        if sequence.frameIDNumbersPresent { try r.skip(sequence.frameIDLength) }  // current_frame_id
        try r.skip(1)  // frame_size_override_flag (not a switch frame, not a reduced header)
        try r.skip(sequence.orderHintBits)  // order_hint
        if !frameIsIntra && !errorResilient { try r.skip(3) }  // primary_ref_frame
        if sequence.decoderModelInfoPresent, try r.flag() {  // buffer_removal_time_present_flag
            for point in sequence.operatingPoints where point.hasDecoderModel {
                let inTemporalLayer = (point.idc >> UInt32(temporalID)) & 1 == 1
                let inSpatialLayer = (point.idc >> UInt32(spatialID + 8)) & 1 == 1
                if point.idc == 0 || (inTemporalLayer && inSpatialLayer) {
                    try r.skip(sequence.bufferRemovalTimeLength)  // buffer_removal_time
                }
            }
        }
        self = .coded(refreshFrameFlags: UInt8(try r.bits(8)))
    }
}
