import CAV

/// Choosing the frame a request asks for: frame-accurate, or the nearest keyframe.
extension DecodeSession {
    /// The frame a player shows `seconds` after the first frame: the last frame presented at or
    /// before that time (the first frame for a time before it). Continues from the session's
    /// position when that is cheaper than seeking (`canContinue(to:)`).
    /// - Throws: `MediaError.noFrame` past the end (or past where a truncated stream stops),
    ///   `.unreadable` (a read on the way failed), `.damaged`, `.timedOut`.
    func exactFrame(at seconds: Double) throws -> Frame {
        let target = pts(forSeconds: seconds)
        // Frames presented two frames' time or more before the time are not its answer where
        // frames come at the stream's rate; where they do not, the answer is checked below.
        skipsUnreferencedBefore = target - 2 * frameDuration
        latestSkippable = nil
        defer { skipsUnreferencedBefore = nil }
        if !canContinue(to: target) { try seekBefore(target) }
        let answer = try decodeForward(to: target, seconds: seconds)
        guard mayHaveSkippedTheAnswer(answer, for: target) else { return try checked(answer, at: seconds) }
        // A frame left out may be the answer: decode again, every frame.
        skipsUnreferencedBefore = nil
        try seekBefore(target)
        return try checked(try decodeForward(to: target, seconds: seconds), at: seconds)
    }

    /// `answer`, once nothing read on the way to it went wrong. A read that failed or found the
    /// file changed throws (`checkReads`). Where reading reached the end of the input, the decoder
    /// gave out what it held with nothing after the last packet read: if the stream stops there
    /// well before its declared end (a file cut short, a read the demuxer could not make), frames
    /// between the answer and the time may never have been read, so that is an error too.
    private func checked(_ answer: Frame, at seconds: Double) throws -> Frame {
        try checkReads(at: seconds)
        if inputEnded, let cut = try truncation() {
            throw MediaError.noFrame(time: seconds, reason: cut)
        }
        try checkWhole(answer, at: seconds)
        // A packet presented after the answer and at or before the time went to the decoder and
        // gave no frame (it did not decode): that frame, not the answer, is the one at the time.
        let target = pts(forSeconds: seconds)
        if let lost = order.pending.filter({ $0 > answer.pts && $0 <= target }).min() {
            throw MediaError.noFrame(time: seconds, reason: "the frame at \(self.seconds(forPts: lost)) s does not decode (damaged, or cut by the end of the file)")
        }
        order.pending = order.pending.filter { $0 > answer.pts }
        return answer
    }

    /// Throws where the decoder made up part of `frame` (`Frame.isConcealed`: damaged data, a
    /// packet cut by the end of the file): it is not the frame the file holds.
    func checkWhole(_ frame: Frame, at seconds: Double) throws {
        guard frame.isConcealed else { return }
        throw MediaError.noFrame(time: seconds, reason: "the frame at \(self.seconds(forPts: frame.pts)) s does not decode whole (damaged, or cut by the end of the file)")
    }

    /// Throws where a read since the request began went wrong (`SourceInput.fault`): one that may
    /// pass (a failing disk, a file that changed) as `MediaError.unreadable`, a file cut short
    /// inside what was read as `.noFrame`. Whatever was decoded meanwhile may lack a frame.
    func checkReads(at seconds: Double) throws {
        guard let fault = input.source.fault else { return }
        if fault.mayPass { throw MediaError.unreadable(fault) }
        throw MediaError.noFrame(time: seconds, reason: "\(fault)")
    }

    /// What caused `failure`: a read since the request began that failed in a way that may pass
    /// (the packets that then did not decode, or the frame not found, are its doing: the failure
    /// may pass too), else `failure` itself.
    func cause(of failure: MediaError) -> MediaError {
        if let fault = input.source.fault, fault.mayPass { return .unreadable(fault) }
        return failure
    }

    /// Decodes from the position to the last frame presented at or before `target` (or the
    /// first frame, for a time before it): until a frame presented after it, or at it.
    private func decodeForward(to target: Int64, seconds: Double) throws -> Frame {
        while true {
            if next == nil { next = try decodeNextShowable() }
            guard let candidate = next else { return try lastFrame(for: target, seconds: seconds) }
            if candidate.pts > target {
                if let shown { return shown }
                // The first frame is already later: the time is before the stream's first frame.
                shown = candidate
                next = nil
                return candidate
            }
            shown = candidate
            next = nil
            // Frames come in presentation order: none after this one is at or before the time,
            // and the decoder need not be fed until the next frame comes out to show it.
            if candidate.pts == target { return candidate }
        }
    }

    /// Whether a frame-accurate request for `target` should decode forward from the position
    /// instead of seeking: the target is not behind the frame shown last, and either no keyframe
    /// lies between the position and the target (a seek would land behind the position) or the
    /// target is within `limits.forwardWindow` seconds.
    func canContinue(to target: Int64) -> Bool {
        guard !needsSeek, let shown, target >= shown.pts else { return false }
        if let next, next.pts > target { return true }
        if next == nil && isDrained { return true }
        let position = next?.pts ?? shown.pts
        if Double(target - position) * av_q2d(timeBase) <= limits.forwardWindow { return true }
        if let keyframes = indexKeyframes(around: target), let before = keyframes.before {
            // No keyframe listed between the position and the target: a seek would land behind.
            return before <= position
        }
        return false
    }

    /// Seeks so that decoding forward reaches `target` from a frame at or before it: again,
    /// earlier, where the demuxer landed after it (`EarlierLanding`).
    private func seekBefore(_ target: Int64) throws {
        var landing = earlierLanding(before: target)
        var seekTo: Int64? = landing.seekTo
        while let to = seekTo {
            try seek(to: to)
            next = try decodeNextShowable()
            if let first = next, first.pts <= target { return }
            seekTo = landing.next(landed: next?.pts)
        }
    }

    /// The answer when the stream ended before a frame after `target` was seen: the last frame,
    /// if the time is within its display time or the stream really ends there (a time past the
    /// last frame but within the container's duration); an error if nothing was decoded or the
    /// stream stopped well before its declared end (a truncated file).
    private func lastFrame(for target: Int64, seconds: Double) throws -> Frame {
        guard let last = shown else {
            if let code = readError {
                throw MediaError.noFrame(time: seconds, reason: "the stream cannot be read from there (\(averrorText(code))); the file may be truncated")
            }
            if let declared = declaredEnd ?? containerEnd, target < declared {
                throw MediaError.noFrame(time: seconds, reason: "no frame can be read there, though the stream should last until \(self.seconds(forPts: declared)) s; the file may be truncated")
            }
            throw MediaError.noFrame(time: seconds, reason: "no frame from the keyframe before this time to the end of the stream")
        }
        let lastEnd = last.pts + (last.duration ?? frameDuration)
        if target < lastEnd { return last }
        if let cut = try truncation() {
            throw MediaError.noFrame(time: seconds, reason: cut)
        }
        if let end = containerEnd ?? declaredEnd, target > end {
            throw MediaError.noFrame(time: seconds, reason: "past the end of the file at \(self.seconds(forPts: end)) s")
        }
        return last
    }

    /// The keyframe nearest `seconds`, before or after it. Only keyframes are decoded
    /// (`AVDISCARD_NONKEY`), so the position is not kept for the next request.
    ///
    /// Where the stream's index (MP4, Matroska, WebM) lists the keyframes on both sides of the
    /// time, the two keyframes' packets decide and only the nearer one is decoded
    /// (`nearestListedKeyframe(to:)`). Otherwise: seeks to the keyframe at or before the time
    /// (further back if the demuxer lands after it, or after the last keyframe), decodes it, and
    /// decodes keyframes forward until the first after the time; the nearer of the two wins.
    /// The index is trusted to list the keyframes next to the time (MP4's sync samples, and the
    /// cues of Matroska muxers, list every keyframe); a stream it does not cover is searched.
    /// - Throws: `MediaError.noFrame` when no keyframe can be decoded there, `.unreadable` (a read
    ///   on the way failed), `.damaged`, `.timedOut`.
    func nearestKeyframe(to seconds: Double) throws -> Frame {
        let target = pts(forSeconds: seconds)
        decoder.keyframesOnly = true
        defer {
            decoder.keyframesOnly = false
            needsSeek = true
        }
        if let listed = try nearestListedKeyframe(to: target) {
            try checkReads(at: seconds)
            try checkWhole(listed, at: seconds)
            shown = listed
            next = nil
            return listed
        }
        var before: Frame?
        var after: Frame?
        var landing = earlierLanding(before: target)
        var seekTo: Int64? = landing.seekTo
        while let to = seekTo {
            try seek(to: to)
            let first = try nextKeyframe()
            if let first, first.pts <= target {
                before = first
                break
            }
            // Landed after the time, or after the last keyframe: look further back.
            if let first { after = first }
            seekTo = landing.next(landed: first?.pts)
        }
        if let found = before, !indexShowsNearest(found, to: target) {
            after = nil
            while let keyframe = try nextKeyframe() {
                if keyframe.pts <= target { before = keyframe } else { after = keyframe; break }
            }
        }
        // The search ran to the end of a stream that stops short of its declared end without a
        // keyframe after the time: the one "nearest" may be only the last one left.
        if after == nil, isDrained, let cut = try truncation() {
            throw MediaError.noFrame(time: seconds, reason: cut)
        }
        let chosen: Frame?
        if let before, let after {
            chosen = after.pts - target < target - before.pts ? after : before
        } else {
            chosen = before ?? after
        }
        try checkReads(at: seconds)
        guard let chosen else {
            if let code = readError {
                throw MediaError.noFrame(time: seconds, reason: "the stream cannot be read from there (\(averrorText(code))); the file may be truncated")
            }
            throw MediaError.noFrame(time: seconds, reason: "no keyframe can be decoded there")
        }
        try checkWhole(chosen, at: seconds)
        shown = chosen
        next = nil
        return chosen
    }

    /// Why the stream stopped where it did, if it stopped well before its declared end (after
    /// reading to the end): a truncated file. Stopping early counts when the stream's own
    /// duration says so, or when reading failed before the container's end. A stream without a
    /// duration of its own (Matroska) that ended cleanly may be a video track that ends before
    /// the audio, or a file cut short: the other streams tell (`fileReaches`).
    private func truncation() throws -> String? {
        func tolerance(_ end: Int64) -> Int64 { max(oneSecond, (end - startPts) / 50) }
        if let declared = declaredEnd ?? (readError == nil ? nil : containerEnd) {
            guard reachedEnd < declared - tolerance(declared) else { return nil }
            let how = readError.map { "reading fails (\(averrorText($0)))" } ?? "the stream ends"
            return "\(how) at \(self.seconds(forPts: reachedEnd)) s, before its declared end at \(self.seconds(forPts: declared)) s; the file may be truncated"
        }
        guard let end = containerEnd, reachedEnd < end - tolerance(end) else { return nil }
        if try fileReaches(end - tolerance(end)) { return nil }
        return "the video stream ends at \(self.seconds(forPts: reachedEnd)) s and no stream reaches the file's declared end at \(self.seconds(forPts: end)) s; the file may be truncated"
    }

    /// Whether any stream of the file has a packet ending at or after `time` (this stream's time
    /// base): seeks all streams to a little before it and reads a bounded number of packets. The
    /// session needs a seek afterwards.
    /// The corresponding C functions are `av_seek_frame` (stream -1) and `av_read_frame`.
    private func fileReaches(_ time: Int64) throws -> Bool {
        needsSeek = true
        let streams = input.streams
        for other in streams { other.pointee.discard = AVDISCARD_DEFAULT }
        defer { for other in streams where other != stream { other.pointee.discard = AVDISCARD_ALL } }
        let goal = av_rescale_q(time, timeBase, cav_time_base_q())
        let from = goal - 5 * Int64(AV_TIME_BASE)
        let sought = av_seek_frame(input.context, -1, from, AVSEEK_FLAG_BACKWARD)
        if sought == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
        guard sought >= 0 else { return false }
        let packet = try Packet()
        for _ in 0..<2_000 {
            let read = av_read_frame(input.context, packet.pointer)
            if read == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
            guard read >= 0 else { return false }
            defer { packet.unref() }
            let p = packet.pointer.pointee
            let stamp = p.pts != cav_nopts_value() ? p.pts : p.dts
            guard stamp != cav_nopts_value(), streams.indices.contains(Int(p.stream_index)) else { continue }
            let base = streams[Int(p.stream_index)].pointee.time_base
            if av_rescale_q(stamp + max(p.duration, 0), base, cav_time_base_q()) >= goal { return true }
        }
        return false
    }

    /// The next decoded keyframe, or nil at the end.
    private func nextKeyframe() throws -> Frame? {
        while let frame = try decodeNextShowable() {
            if frame.isKeyframe { return frame }
        }
        return nil
    }

    /// Whether the index shows `keyframe` (at or before `target`) as the last keyframe at or
    /// before it, and the next listed keyframe as no nearer. MP4 lists decode times, which are at
    /// or before presentation times: that errs towards decoding on, never towards a wrong answer.
    private func indexShowsNearest(_ keyframe: Frame, to target: Int64) -> Bool {
        guard let entries = indexKeyframes(around: target),
              let listedBefore = entries.before, let listedAfter = entries.after else { return false }
        return listedBefore <= keyframe.pts && listedAfter - target >= target - keyframe.pts
    }
}
