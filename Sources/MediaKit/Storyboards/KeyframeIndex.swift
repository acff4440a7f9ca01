import CAV

/// Where the keyframes of one video stream are: the presentation times of the packets the
/// demuxer flags as keyframes (`AV_PKT_FLAG_KEY`), in the stream's time base, ascending, without
/// repeats. Found once per file version by demuxing, without decoding (`scan(_:)`), and kept
/// (`KeyframeIndexCache`) for every sheet and contact sheet of that version.
struct KeyframeIndex: Sendable {
    /// Presentation times, ascending, each once.
    let times: [Int64]

    init(times: [Int64]) {
        self.times = Array(Set(times)).sorted()
    }

    /// The keyframe nearest `target`: the one whose time is closest to it; of two equally close
    /// (one before, one after), the earlier. Nil for an empty index.
    func nearest(to target: Int64) -> Int64? {
        guard !times.isEmpty else { return nil }
        let after = firstIndex(atOrAfter: target)
        if after == times.count { return times[after - 1] }
        if after == 0 || times[after] == target { return times[after] }
        let before = times[after - 1]
        return times[after] - target < target - before ? times[after] : before
    }

    /// The keyframe after the one at `time` (or after `time`, if none is there); nil past the last.
    func next(after time: Int64) -> Int64? {
        let i = firstIndex(atOrAfter: time &+ 1)
        return i < times.count ? times[i] : nil
    }

    /// The index of the first time at or after `target` (`times.count` if none is).
    private func firstIndex(atOrAfter target: Int64) -> Int {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension KeyframeIndex {
    /// The keyframes of the session's stream: its file sought to the start, then every packet of
    /// the stream read (the other streams' are discarded by the demuxer), nothing decoded. A
    /// packet without a presentation time counts at its decode time. The session needs a seek
    /// afterwards (`needsSeek`).
    /// The corresponding C functions are `av_seek_frame` and `av_read_frame`.
    /// - Throws: `MediaError.timedOut` past the session's deadline, `.library` when the seek fails.
    static func scan(_ session: DecodeSession) throws -> KeyframeIndex {
        let input = session.input
        session.needsSeek = true
        let stream = session.stream.pointee.index
        let sought = av_seek_frame(input.context, stream, session.startPts, AVSEEK_FLAG_BACKWARD)
        if sought == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
        if sought < 0 {
            // Demuxers that cannot seek at all (rare) are read from where they are only when
            // nothing was read yet: a new session, just past the header.
            guard session.seeks == 0 else {
                throw MediaError.library(function: "av_seek_frame", code: sought, message: averrorText(sought))
            }
        }
        let packet = try Packet()
        var times: [Int64] = []
        while true {
            let read = av_read_frame(input.context, packet.pointer)
            if read == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
            // The end, or damage: what was read is the index (a truncated file has keyframes up to
            // the cut, and the sheets show those).
            guard read >= 0 else { break }
            let p = packet.pointer.pointee
            if p.stream_index == stream, p.flags & AV_PKT_FLAG_KEY != 0 {
                let time = p.pts != cav_nopts_value() ? p.pts : p.dts
                if time != cav_nopts_value() { times.append(time) }
            }
            packet.unref()
        }
        return KeyframeIndex(times: times)
    }
}
