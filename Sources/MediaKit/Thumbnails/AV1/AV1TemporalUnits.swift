/// Tells which frames of AV1 temporal units (a packet each, in the containers libavformat reads
/// AV1 from) no later frame refers to, so that a frame-accurate request can leave them out on its
/// way from a keyframe to its time. libavcodec's `skip_frame = AVDISCARD_NONREF` does this inside
/// the H.264 and HEVC decoders, but FFmpeg 5.1's libdav1d wrapper ignores it (and dav1d 1.0 has
/// no setting for it), so for AV1 the packets are judged, and trimmed, before they are sent.
///
/// A frame can be left out when it is coded with `refresh_frame_flags == 0`: it is stored in no
/// reference slot, and everything a later frame inherits (references, CDFs, segmentation, loop
/// filter deltas, film grain) goes through the slots. Random-access encoders put such a frame
/// alone in a unit, or after the hidden (not shown) frames that later frames refer to: the unit
/// is then sent without it. A frame shown again (`show_existing_frame`) is kept (it costs no
/// decoding, and showing a key frame again refreshes every slot), as are the frames of a unit
/// that cannot be read to the end of its frame headers, before a sequence header was seen, and
/// of a scalable stream (more than one operating point, or spatial layers), where which frames
/// the decoder uses depends on its operating point.
///
/// Reads only the OBU headers, the sequence header and the start of each frame header
/// (specification sections 5.3, 5.5, 5.9); the tile data is skipped by its size.
struct AV1TemporalUnits {
    /// What to send the decoder of a unit.
    enum Judgement: Equatable {
        /// The unit as it is.
        case whole
        /// Nothing: every frame in it is left out, and nothing else in it matters.
        case nothing
        /// Only these byte ranges of it (in order): the OBUs of the frames left out are not.
        case only([Range<Int>])
    }

    /// The last sequence header seen, from the codec configuration or in the stream; nil before
    /// one or after one that could not be read.
    private(set) var sequence: AV1SequenceHeader?

    private enum OBUType: Int {
        case sequenceHeader = 1, temporalDelimiter = 2, frameHeader = 3, tileGroup = 4, metadata = 5, frame = 6
        case redundantFrameHeader = 7, tileList = 8, padding = 15
    }

    /// Starts from the stream's codec configuration, if any: an `AV1CodecConfigurationRecord`
    /// (av1C: 4 bytes, then configuration OBUs, as Matroska and MP4 carry it) or bare OBUs.
    init(configuration: UnsafeRawBufferPointer?) {
        guard let configuration, !configuration.isEmpty else { return }
        // The record's first byte is its marker bit and version 1; an OBU's first bit is 0.
        let obus = configuration[0] == 0x81 ? UnsafeRawBufferPointer(rebasing: configuration.dropFirst(4)) : configuration
        _ = judge(obus)
    }

    /// Whether the whole unit can be left out (`judge(_:)` says `.nothing`).
    mutating func canSkip(_ unit: UnsafeRawBufferPointer) -> Bool {
        judge(unit) == .nothing
    }

    /// What of `unit` the decoder needs: see the type's description. Also takes a sequence
    /// header the unit carries.
    mutating func judge(_ unit: UnsafeRawBufferPointer) -> Judgement {
        var kept: [Range<Int>] = []
        var frames = 0, framesLeftOut = 0
        var onlyFrames = true  // nothing but frames, delimiters, metadata and padding
        var leavingOutFrame = false  // the OBUs read belong to a frame left out
        var r = AV1BitReader(unit)
        do {
            while r.bitsLeft > 0 {
                let start = r.position / 8
                // obu_header(): forbidden bit, type, extension flag, has-size flag, reserved bit.
                guard try r.bits(1) == 0 else { return .whole }
                let type = OBUType(rawValue: Int(try r.bits(4)))
                let hasExtension = try r.flag()
                let hasSize = try r.flag()
                try r.skip(1)
                var temporalID = 0, spatialID = 0
                if hasExtension {
                    temporalID = Int(try r.bits(3))
                    spatialID = Int(try r.bits(2))
                    try r.skip(3)
                }
                let size = hasSize ? try r.leb128() : r.bitsLeft / 8
                guard size <= r.bitsLeft / 8 else { return .whole }
                let payloadStart = r.position / 8
                let payload = UnsafeRawBufferPointer(rebasing: unit[payloadStart..<payloadStart + size])
                try r.skip(size * 8)
                var keeps = true
                switch type {
                case .sequenceHeader:
                    sequence = nil
                    sequence = try AV1SequenceHeader(payload: payload)
                    onlyFrames = false
                case .frameHeader, .frame:
                    frames += 1
                    leavingOutFrame = false
                    if let sequence, sequence.operatingPoints.count == 1, spatialID == 0 {
                        let header = try AV1FrameHeader(payload: payload, sequence: sequence,
                                                        temporalID: temporalID, spatialID: spatialID)
                        leavingOutFrame = header == .coded(refreshFrameFlags: 0)
                    }
                    if leavingOutFrame { framesLeftOut += 1 }
                    keeps = !leavingOutFrame
                case .tileGroup, .redundantFrameHeader:
                    keeps = !leavingOutFrame
                case .tileList:
                    return .whole
                case .temporalDelimiter, .metadata, .padding:
                    break
                case nil:
                    onlyFrames = false
                }
                if keeps {
                    if let last = kept.last, last.upperBound == start {
                        kept[kept.count - 1] = last.lowerBound..<r.position / 8
                    } else {
                        kept.append(start..<r.position / 8)
                    }
                }
            }
        } catch {
            return .whole
        }
        if framesLeftOut == 0 { return .whole }
        if framesLeftOut == frames && onlyFrames { return .nothing }
        return .only(kept)
    }
}
