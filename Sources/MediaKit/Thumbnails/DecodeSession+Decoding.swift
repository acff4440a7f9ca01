import CAV

/// Seeking, and feeding the decoder packet by packet.
extension DecodeSession {
    /// Seeks to the keyframe at or before `target` (or, when there is none, the first one after
    /// it; with `forward`, the other way round) and empties the decoder. The corresponding C
    /// functions are `av_seek_frame` (with `AVSEEK_FLAG_BACKWARD`, or without) and
    /// `avcodec_flush_buffers`.
    ///
    /// What the seek reads to find where to land (Matroska's cues at the end of the file, an MPEG
    /// stream's search over it) says nothing of the frames decoded from there: a read of it that
    /// fails is kept apart (`SourceInput.apart`), not taken for a fault of the answer. Where it
    /// lands is checked by what is decoded (a keyframe, at or before the time).
    /// - Throws: `MediaError.timedOut`; `.unreadable` where the seek failed on a read that failed;
    ///   `.library` where it failed otherwise.
    func seek(to target: Int64, forward: Bool = false) throws {
        try input.deadline.check()
        let index = stream.pointee.index
        let (result, fault) = input.source.apart { () -> Int32 in
            let result = av_seek_frame(input.context, index, target, forward ? 0 : AVSEEK_FLAG_BACKWARD)
            guard result < 0 && result != cav_error_exit() else { return result }
            return av_seek_frame(input.context, index, target, forward ? AVSEEK_FLAG_BACKWARD : 0)
        }
        if result < 0 {
            if result == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
            if let fault, fault.mayPass { throw MediaError.unreadable(fault) }
            throw MediaError.library(function: "av_seek_frame", code: result, message: averrorText(result))
        }
        decoder.flush()
        shown = nil
        next = nil
        inputEnded = false
        drained = false
        drainingKeyframe = false
        readError = nil
        lastPts = nil
        latestSkippable = nil
        reachedEnd = .min
        order.reset()
        needsSeek = false
        isWhereOpened = false
        awaitingKeyframe = true
        seeks += 1
    }

    /// The next frame out of the decoder, reading packets as it needs them, or nil once it is
    /// drained; its time is the decoder's (`Frame.decoderTimestamp`), before `decodeNext()` times
    /// it in the decoder's order. Broken packets are skipped, up to `limits.maxFailuresInARow` in
    /// a row.
    /// The corresponding C functions are `av_read_frame`, `avcodec_send_packet` and
    /// `avcodec_receive_frame`.
    /// - Throws: `MediaError.timedOut`, `.damaged` (too many failures, or the frame cap).
    func decodeOne() throws -> Frame? {
        if drained { return nil }
        while true {
            try input.deadline.check()
            let frame = try spare ?? Frame()
            spare = nil
            let received = avcodec_receive_frame(decoder.context, frame.pointer)
            if received != 0 { spare = frame }
            if received == 0 {
                framesDecoded += 1
                failuresInARow = 0
                if framesDecoded > limits.maxDecodedFrames {
                    throw MediaError.damaged(reason: "decoded \(limits.maxDecodedFrames) frames without reaching the frame asked for (keyframes too far apart, or a broken stream)")
                }
                let pts = frame.decoderTimestamp ?? lastPts.map { $0 + frameDuration } ?? startPts
                frame.pts = pts
                lastPts = pts
                reachedEnd = max(reachedEnd, pts + (frame.duration ?? frameDuration))
                return frame
            }
            if received == cav_error_eof() && drainingKeyframe && !inputEnded {
                // Its keyframe is out: on with the next.
                drainingKeyframe = false
                decoder.flush()
                continue
            }
            if received == cav_error_eof() || (received == cav_error_eagain() && inputEnded) {
                drained = true
                return nil
            }
            if received != cav_error_eagain() {
                try countFailure(received)
                continue
            }
            try feedOnePacket()
        }
    }

    /// Reads one packet of the stream into the decoder; at the end of the input (or an error
    /// reading it), sends the empty packet that makes the decoder give out what it holds.
    private func feedOnePacket() throws {
        isWhereOpened = false
        let read = av_read_frame(input.context, packet.pointer)
        if read < 0 {
            if read == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
            inputEnded = true
            if read != cav_error_eof() { readError = read }
            _ = avcodec_send_packet(decoder.context, nil)
            return
        }
        defer { packet.unref() }
        guard packet.pointer.pointee.stream_index == stream.pointee.index else { return }
        input.noteIfCut(packet.pointer)
        let p = packet.pointer.pointee
        if p.pts != cav_nopts_value() { reachedEnd = max(reachedEnd, p.pts + max(p.duration, 0)) }
        let admitted: Admission = try decoder.keyframesOnly ? .whole : admission(of: packet.pointer)
        guard let sending = admitted.packet(readAs: packet) else { return }
        if case .whole = admitted, !decoder.keyframesOnly, p.pts != cav_nopts_value(), !isSkippable(p.pts) {
            order.sent(p.pts)
        }
        // Sent only after the decoder said it wants input (EAGAIN from receive), so it is taken.
        let sent = avcodec_send_packet(decoder.context, sending.pointer)
        if sent < 0 && sent != cav_error_eagain() { try countFailure(sent) }
        if decoder.keyframesOnly && sendsKeyframesAlone && sent >= 0 && p.flags & AV_PKT_FLAG_KEY != 0 {
            _ = avcodec_send_packet(decoder.context, nil)
            drainingKeyframe = true
        }
    }

    /// Whether keyframes-only decoding sends each keyframe alone, the end of the input after it,
    /// so that its picture comes out before the next is read. An H.264 decoder given keyframes
    /// alone may give them out of order, an open GOP's I-frame before the IDR frame before it
    /// (the IDR frame only once the input ends): a search for the keyframe at or before a time
    /// would meet the later one first. Each keyframe decodes alone anyway.
    private var sendsKeyframesAlone: Bool { decoder.context.pointee.codec_id == AV_CODEC_ID_H264 }

    /// Decodes `packet`, a keyframe's read since the last seek, and nothing after it: the packet
    /// and then the end of the input go to the decoder, which gives the frame out at once rather
    /// than hold it back for the frames it would reorder after it. Nil when it gives no keyframe.
    /// The session needs a seek afterwards. The corresponding C function is `avcodec_send_packet`.
    func decodeAlone(_ packet: Packet) throws -> Frame? {
        needsSeek = true
        decoder.flush()
        order.reset()
        let sent = avcodec_send_packet(decoder.context, packet.pointer)
        guard sent >= 0 else { return nil }
        _ = avcodec_send_packet(decoder.context, nil)
        inputEnded = true
        drained = false
        drainingKeyframe = false
        awaitingKeyframe = true
        return try decodeNextShowable()
    }

    private func countFailure(_ code: Int32) throws {
        failuresInARow += 1
        if failuresInARow > limits.maxFailuresInARow {
            throw MediaError.damaged(reason: "\(failuresInARow) packets in a row failed to decode (\(averrorText(code)))")
        }
    }
}
