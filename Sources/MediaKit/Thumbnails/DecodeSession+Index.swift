import CAV

/// The stream's index (the demuxer's entries: MP4's sample table, Matroska's cues), and the
/// nearest keyframe found from it with one keyframe decoded.
extension DecodeSession {
    /// The index entries of keyframes nearest `target`: the last at or before it and the first
    /// after it, as index timestamps. Nil where the stream has no index (MPEG program streams).
    /// The corresponding C functions are `av_index_search_timestamp` and `avformat_index_get_entry`.
    func indexKeyframes(around target: Int64) -> (before: Int64?, after: Int64?)? {
        guard avformat_index_get_entries_count(stream) > 0 else { return nil }
        func keyframe(_ timestamp: Int64, _ flags: Int32) -> Int64? {
            let i = av_index_search_timestamp(stream, timestamp, flags)
            guard i >= 0, let e = avformat_index_get_entry(stream, i), cav_index_entry_is_keyframe(e) != 0 else { return nil }
            return e.pointee.timestamp
        }
        let before = keyframe(target, AVSEEK_FLAG_BACKWARD)
        let after = target == .max ? nil : keyframe(target + 1, 0)
        return (before, after)
    }

    /// The keyframe nearest `target`, where the index lists the keyframes on both sides of it;
    /// only that keyframe is decoded (`AVDISCARD_NONKEY` must be set).
    ///
    /// Seeks to the keyframe at or before the time (after the seek, which is when Matroska reads
    /// its cues, the index is complete) and reads its packet. When the index shows it as the last
    /// keyframe at or before the time, and the next listed one is no nearer, it is the answer.
    /// When the next one may be nearer, the file is sought to the first keyframe after the time
    /// and its packet read: the two packets' presentation times decide, without decoding either.
    /// MP4 lists decode times, at or before presentation times, so an index time errs towards
    /// looking at the next keyframe, never towards a wrong answer. The chosen packet is then
    /// decoded alone (`decodeAlone(_:)`): no packet after it is read.
    ///
    /// Nil where the index cannot tell (no index, no keyframe listed after the time, the seek
    /// landed after the time, a packet that is not a keyframe's or does not decode as one):
    /// the caller then decodes keyframes forward. The session needs a seek afterwards.
    func nearestListedKeyframe(to target: Int64) throws -> Frame? {
        try seek(to: max(target, startPts))
        guard let before = try keyframePacket(), let beforeTime = before.presentationTime, beforeTime <= target,
              let listed = indexKeyframes(around: target), let listedBefore = listed.before, listedBefore <= beforeTime,
              let listedAfter = listed.after else { return nil }
        var chosen = before
        if listedAfter - target < target - beforeTime {
            try seek(to: target + 1, forward: true)
            guard let after = try keyframePacket(), let afterTime = after.presentationTime, afterTime > target else {
                return nil
            }
            if afterTime - target < target - beforeTime { chosen = after }
        }
        return try decodeAlone(chosen)
    }

    /// The next packet of the stream (the others are discarded in the demuxer), when it is a
    /// keyframe's; nil when it is not, or the stream ends. The corresponding C function is
    /// `av_read_frame`.
    /// - Throws: `MediaError.timedOut`.
    private func keyframePacket() throws -> Packet? {
        let packet = try Packet()
        while true {
            try input.deadline.check()
            let read = av_read_frame(input.context, packet.pointer)
            if read < 0 {
                if read == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
                return nil
            }
            if packet.pointer.pointee.stream_index == stream.pointee.index { break }
            packet.unref()
        }
        input.noteIfCut(packet.pointer)
        return packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 ? packet : nil
    }
}

extension Packet {
    /// When the packet is shown, in its stream's time base: its presentation time, else its
    /// decoding time; nil when it has neither.
    var presentationTime: Int64? {
        let p = pointer.pointee
        if p.pts != cav_nopts_value() { return p.pts }
        return p.dts != cav_nopts_value() ? p.dts : nil
    }
}
