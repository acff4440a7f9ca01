/// Tells which AV1 temporal units (a packet each, in the containers libavformat reads AV1 from)
/// no later frame refers to, so that a frame-accurate request can leave them out on its way from
/// a keyframe to its time. libavcodec's `skip_frame = AVDISCARD_NONREF` does this inside the
/// H.264 and HEVC decoders, but FFmpeg 5.1's libdav1d wrapper ignores it (and dav1d 1.0 has no
/// setting for it), so for AV1 the packets are judged before they are sent.
///
/// A unit can be left out when every frame in it is coded with `refresh_frame_flags == 0`: such a
/// frame is stored in no reference slot, and everything a later frame inherits (references, CDFs,
/// segmentation, loop filter deltas, film grain) goes through the slots. A unit that shows an
/// existing frame is kept (it costs no decoding, and showing a key frame again refreshes every
/// slot), as is one that cannot be read to the end of its frame headers, one from before a
/// sequence header was seen, and any of a scalable stream (more than one operating point, or
/// spatial layers), where which frames the decoder uses depends on its operating point.
///
/// Reads only the OBU headers, the sequence header and the start of each frame header
/// (specification sections 5.3, 5.5, 5.9); the tile data is skipped by its size.
struct AV1TemporalUnits {
    /// The last sequence header seen, from the codec configuration or in the stream; nil before
    /// one or after one that could not be read.
    private(set) var sequence: AV1SequenceHeader?

    private enum OBUType: Int {
        case sequenceHeader = 1, frameHeader = 3, tileGroup = 4, frame = 6, tileList = 8
    }

    /// Starts from the stream's codec configuration, if any: an `AV1CodecConfigurationRecord`
    /// (av1C: 4 bytes, then configuration OBUs, as Matroska and MP4 carry it) or bare OBUs.
    init(configuration: UnsafeRawBufferPointer?) {
        guard let configuration, !configuration.isEmpty else { return }
        // The record's first byte is its marker bit and version 1; an OBU's first bit is 0.
        let obus = configuration[0] == 0x81 ? UnsafeRawBufferPointer(rebasing: configuration.dropFirst(4)) : configuration
        _ = scan(obus)
    }

    /// Whether no later frame needs the unit's frames: see the type's description. Also takes
    /// a sequence header the unit carries.
    mutating func canSkip(_ unit: UnsafeRawBufferPointer) -> Bool {
        scan(unit) == true
    }

    /// Reads the unit's OBUs: true if it has coded frames and none is stored as a reference,
    /// false if one is or cannot be judged, nil if it has no frame header.
    private mutating func scan(_ unit: UnsafeRawBufferPointer) -> Bool? {
        var disposable: Bool?
        var r = AV1BitReader(unit)
        do {
            while r.bitsLeft > 0 {
                // obu_header(): forbidden bit, type, extension flag, has-size flag, reserved bit.
                guard try r.bits(1) == 0 else { return false }
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
                guard size <= r.bitsLeft / 8 else { return false }
                let start = r.position / 8
                let payload = UnsafeRawBufferPointer(rebasing: unit[start..<start + size])
                try r.skip(size * 8)
                switch type {
                case .sequenceHeader:
                    sequence = nil
                    sequence = try AV1SequenceHeader(payload: payload)
                case .frameHeader, .frame:
                    guard disposable != false else { continue }
                    guard let sequence, sequence.operatingPoints.count == 1, spatialID == 0 else {
                        disposable = false
                        continue
                    }
                    let header = try AV1FrameHeader(payload: payload, sequence: sequence,
                                                    temporalID: temporalID, spatialID: spatialID)
                    disposable = header == .coded(refreshFrameFlags: 0)
                case .tileList:
                    disposable = false
                case .tileGroup, nil:
                    continue
                }
            }
        } catch {
            return false
        }
        return disposable
    }
}
