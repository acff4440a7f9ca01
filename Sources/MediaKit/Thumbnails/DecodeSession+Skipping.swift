import CAV

/// Leaving out, on the way to a frame-accurate time, the frames no other frame refers to.
extension DecodeSession {
    /// What goes to the decoder of a packet read.
    enum Admission {
        case whole
        case nothing
        /// A packet made of part of the one read (an AV1 unit without its frames left out).
        case instead(Packet)

        /// The packet to send, `read` or the one made instead; nil for nothing.
        func packet(readAs read: Packet) -> Packet? {
            switch self {
            case .whole: read
            case .nothing: nil
            case .instead(let part): part
            }
        }
    }

    /// What of `packet` goes to the decoder, and how: while `skipsUnreferencedBefore` is set, a
    /// packet presented before it is decoded only if other frames refer to it. For H.264, HEVC
    /// and the other codecs whose decoder can tell, the decoder is asked to (`skip_frame =
    /// AVDISCARD_NONREF`); of an AV1 packet, the frames stored in no reference slot are not sent
    /// (`AV1TemporalUnits`). Such packets are recorded in `latestSkippable`.
    /// - Throws: `MediaError.library` when out of memory.
    func admission(of packet: UnsafeMutablePointer<AVPacket>) throws -> Admission {
        let pts = packet.pointee.pts
        let skippable = isSkippable(pts)
        guard av1Units != nil else {
            decoder.context.pointee.skip_frame = skippable ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            if skippable { latestSkippable = max(latestSkippable ?? pts, pts) }
            return .whole
        }
        // Every packet is read, for the sequence headers it may carry.
        let data = UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
        guard let judgement = av1Units?.judge(data), skippable else { return .whole }
        switch judgement {
        case .whole:
            return .whole
        case .nothing:
            latestSkippable = max(latestSkippable ?? pts, pts)
            return .nothing
        case .only(let ranges):
            latestSkippable = max(latestSkippable ?? pts, pts)
            return .instead(try Self.packet(packet, keeping: ranges))
        }
    }

    /// Whether a packet presented at `pts` is decoded only if other frames refer to it (see
    /// `admission(of:)`).
    func isSkippable(_ pts: Int64) -> Bool {
        skipsUnreferencedBefore.map { pts != cav_nopts_value() && pts < $0 } ?? false
    }

    /// A new packet of `ranges` of `packet`'s data, with its times, flags and side data. The
    /// corresponding C functions are `av_new_packet` and `av_packet_copy_props`.
    private static func packet(_ packet: UnsafeMutablePointer<AVPacket>, keeping ranges: [Range<Int>]) throws -> Packet {
        let made = try Packet()
        let size = ranges.reduce(0) { $0 + $1.count }
        guard av_new_packet(made.pointer, Int32(size)) == 0, av_packet_copy_props(made.pointer, packet) == 0,
              let destination = made.pointer.pointee.data, let source = packet.pointee.data else {
            throw MediaError.library(function: "av_new_packet", code: cav_averror(ENOMEM), message: "out of memory")
        }
        var offset = 0
        for range in ranges {
            (destination + offset).update(from: source + range.lowerBound, count: range.count)
            offset += range.count
        }
        return made
    }

    /// Whether `answer`, found for `target` while frames were skipped, may be wrong: a packet
    /// left out (or maybe left out by the decoder) is presented after the last frame at or before
    /// the target, so it, not the frame found, may be the last at or before it. Frames are skipped
    /// only well before the target, so this happens only where frames are further apart than
    /// the stream's rate says.
    func mayHaveSkippedTheAnswer(_ answer: Frame, for target: Int64) -> Bool {
        guard let skipped = latestSkippable else { return false }
        return skipped > (answer.pts <= target ? answer.pts : .min)
    }
}

extension AV1TemporalUnits {
    /// For an AV1 stream, starting from its codec configuration (`extradata`); nil for another codec.
    init?(stream: UnsafeMutablePointer<AVStream>) {
        let parameters = stream.pointee.codecpar.pointee
        guard parameters.codec_id == AV_CODEC_ID_AV1 else { return nil }
        self.init(configuration: parameters.extradata.map {
            UnsafeRawBufferPointer(start: $0, count: Int(parameters.extradata_size))
        })
    }
}
