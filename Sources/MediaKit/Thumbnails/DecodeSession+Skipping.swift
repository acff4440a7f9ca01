import CAV

/// Leaving out, on the way to a frame-accurate time, the frames no other frame refers to.
extension DecodeSession {
    /// Whether `packet` goes to the decoder, and how: while `skipsUnreferencedBefore` is set, a
    /// packet presented before it is decoded only if other frames refer to it. For H.264, HEVC
    /// and the other codecs whose decoder can tell, the decoder is asked to (`skip_frame =
    /// AVDISCARD_NONREF`); an AV1 packet whose frames are stored in no reference slot is not
    /// sent at all (`AV1TemporalUnits`). Such packets are recorded in `latestSkippable`.
    func admits(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        let pts = packet.pointee.pts
        let skippable = skipsUnreferencedBefore.map { pts != cav_nopts_value() && pts < $0 } ?? false
        guard av1Units != nil else {
            decoder.context.pointee.skip_frame = skippable ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            if skippable { latestSkippable = max(latestSkippable ?? pts, pts) }
            return true
        }
        // Every packet is read, for the sequence headers it may carry.
        let data = UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
        guard av1Units?.canSkip(data) == true, skippable else { return true }
        latestSkippable = max(latestSkippable ?? pts, pts)
        return false
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
