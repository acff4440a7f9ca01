import CAV

/// Decoding one group of pictures (from a keyframe to the frame before the next) for the frames
/// a cut may be among.
extension DecodeSession {
    /// The signature of every frame numbered in `frames` (a keyframe's number up to the frame
    /// before the next keyframe, of `survey`), decoded from that keyframe: `groupPictures` with
    /// `PictureSignature`s.
    func groupSignatures(_ frames: ClosedRange<Int>, exactFrom: Int, survey: StreamSurvey,
                         pictures: PictureMaker, share: DecoderShare? = nil) throws -> [Int: PictureSignature] {
        try groupPictures(frames, exactFrom: exactFrom, survey: survey, pictures: pictures, share: share, filtered: false) {
            try pictures.signature(of: $0)
        }
    }

    /// What `look` makes of every frame numbered in `frames` (a keyframe's number up to the frame
    /// before the next keyframe, of `survey`), decoded from that keyframe. Frames before
    /// `exactFrom` are decoded only where later frames refer to them (`AVDISCARD_NONREF`), so
    /// they may be missing. `filtered` false skips the loop filter for H.264 (a signature of cell
    /// means does not see it; a tone, read sample by sample, may).
    /// - Throws: `MediaError.unreadable` where a read failed, `.damaged` where a frame from
    ///   `exactFrom` on does not decode whole or at all, `.timedOut`.
    /// - Throws: `DecoderShare.SteppedAside` where `share` asks to step aside part way (another
    ///   request waits for a decoder): the group is decoded again from its start after.
    func groupPictures<Look>(_ frames: ClosedRange<Int>, exactFrom: Int, survey: StreamSurvey, pictures: PictureMaker,
                             share: DecoderShare? = nil, filtered: Bool = true,
                             look: (Frame) throws -> Look) throws -> [Int: Look] {
        let first = survey.times[frames.lowerBound], last = survey.times[frames.upperBound]
        let skipsBefore = survey.times[min(exactFrom, frames.upperBound)]
        var landing = EarlierLanding(first: first, start: startPts, oneSecond: oneSecond)
        try seek(to: first)
        pictures.startOver()
        let codec = decoder.context.pointee.codec_id
        let isH264 = codec == AV_CODEC_ID_H264
        // DivX's packed B-frames keep a B-frame in the packet of the P-frame before it, timed as
        // the P-frame: left out with it, a frame from `exactFrom` on would be missing, and the
        // P-frame, without the frame it swaps times with (`FrameOrder`), would take the B-frame's.
        let skipsUnreferenced = codec != AV_CODEC_ID_MPEG4
        decoder.context.pointee.skip_loop_filter = isH264 && !filtered ? AVDISCARD_ALL : AVDISCARD_DEFAULT
        defer {
            decoder.context.pointee.skip_loop_filter = AVDISCARD_DEFAULT
            decoder.context.pointee.skip_frame = AVDISCARD_DEFAULT
            needsSeek = true
        }
        var found: [Int: Look] = [:]
        var started = false
        // The next group's keyframe, held back: an open group of pictures (MPEG-2, MPEG-4 Part 2)
        // has pictures shown before its keyframe but coded after it, referring to it, and those
        // belong to this group.
        var nextKeyframe: Packet?, pastNextKeyframe = false
        func keep(_ frame: Frame) throws {
            guard frame.pts >= first, frame.pts <= last, let number = survey.frame(at: frame.pts) else { return }
            found[number] = try look(frame)
        }
        // A seek in an MPEG program stream guesses a byte position and may land past the keyframe
        // asked for: the group would start at the next one (or find none after the last). Where
        // the first keyframe read is later, the seek lands further back, and reading starts again.
        var sawKeyframe = false
        func landEarlier(landed: Int64?) throws -> Bool {
            guard let seekTo = landing.next(landed: landed) else { return false }
            try seek(to: seekTo)
            pictures.startOver()
            sawKeyframe = false
            return true
        }
        let none = cav_nopts_value()
        let packet = try Packet()
        while true {
            try input.deadline.check()
            try share?.holdWhileBusy()
            let read = av_read_frame(input.context, packet.pointer)
            if read < 0 {
                if read == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
                if !sawKeyframe, try landEarlier(landed: nil) { continue }
                break
            }
            defer { packet.unref() }
            let p = packet.pointer.pointee
            guard p.stream_index == stream.pointee.index else { continue }
            input.noteIfCut(packet.pointer)
            let time = p.pts != none ? p.pts : p.dts
            let isKey = p.flags & AV_PKT_FLAG_KEY != 0
            // From the group's keyframe (a seek may land a little before it) to the next keyframe.
            if !started {
                guard isKey else { continue }
                if !sawKeyframe {
                    sawKeyframe = true
                    if time != none, time > first, try landEarlier(landed: time) { continue }
                }
                guard time >= first else { continue }
                started = true
            } else if isKey && time != none && time > last && !pastNextKeyframe {
                nextKeyframe = try Packet(referencing: packet)
                pastNextKeyframe = true
                continue
            } else if pastNextKeyframe {
                // Shown after the group: it is over. Shown in it: the keyframe it refers to first.
                guard !isKey, time != none, time <= last else { break }
                if let held = nextKeyframe {
                    decoder.context.pointee.skip_frame = AVDISCARD_DEFAULT
                    try pictures.send(held, to: decoder, each: keep)
                    nextKeyframe = nil
                }
            }
            // Shown before the group's keyframe, coded after it (open): the group before's, which
            // a decoder starting here would make up in part.
            if time != none && time < first { continue }
            let skippable = skipsUnreferenced && time != none && time < skipsBefore && !isKey
            decoder.context.pointee.skip_frame = skippable ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            try pictures.send(packet, to: decoder, whole: !skippable, each: keep)
        }
        try pictures.drain(decoder, each: keep)
        try input.checkReads()
        if let fault = input.source.fault { throw MediaError.damaged(reason: "\(fault)") }
        guard started else {
            throw MediaError.damaged(reason: "the keyframe at \(seconds(forPts: first)) s cannot be read again")
        }
        for number in max(exactFrom, frames.lowerBound)...frames.upperBound where found[number] == nil {
            throw MediaError.damaged(reason: "the frame at \(seconds(forPts: survey.times[number])) s does not decode")
        }
        return found
    }
}
