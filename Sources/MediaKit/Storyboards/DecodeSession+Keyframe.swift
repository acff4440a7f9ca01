import CAV

/// Decoding one listed keyframe (`KeyframeIndex`), for storyboards and contact sheets.
extension DecodeSession {
    /// The keyframe presented at `time` (a time of the stream's `KeyframeIndex`), its `pts` set
    /// to `time`.
    ///
    /// The keyframe is found among the packets, not the pictures: packets are read, not decoded,
    /// up to the one flagged as a keyframe that the index knows as the keyframe at `time`
    /// (`KeyframeIndex.keyframe(presentedAt:decodedAt:)`), and that packet alone is decoded
    /// (`decodeAlone`). A decoder that holds pictures back for reordering, given keyframes only,
    /// gives a keyframe's picture with the time of the next packet it is sent, and where packets
    /// carry no time of their own (MPEG program streams) that is the next keyframe's: the
    /// pictures' times cannot say which keyframe they are.
    ///
    /// When the session's last answer was the keyframe just before it in `index`, reading goes
    /// on from there; otherwise the file is sought (`keyframeSeeks(to:in:)`). Where a seek lands
    /// past it (the first keyframe read is a later one), or reaches the end without it, the next
    /// seek of the list is tried. Only that keyframe is an answer: a neighbour shown in its place
    /// would be a wrong tile.
    /// - Throws: `MediaError.unreadable` when a read on the way failed (`checkReads(at:)`),
    ///   `.noFrame` when the keyframe cannot be read (the file is cut short before it) or
    ///   decoded, `.timedOut`.
    func keyframe(at time: Int64, in index: KeyframeIndex, skipsLoopFilter: Bool = true) throws -> Frame {
        let skips = skipsLoopFilter && decoder.context.pointee.codec_id == AV_CODEC_ID_H264
        decoder.context.pointee.skip_loop_filter = skips ? AVDISCARD_ALL : AVDISCARD_DEFAULT
        let continues = !needsSeek && shown.map { index.next(after: $0.pts) == time } == true
        let seeks = keyframeSeeks(to: time, in: index)
        let starts: [KeyframeSeek?] = (continues ? [nil] : []) + seeks
        let packet = try Packet()
        var readError: Int32?
        for start in starts {
            if let start { try seek(to: start.target, forward: start.forward) }
            needsSeek = true
            shown = nil
            var found: Int64?
            while found == nil, let listed = try readKeyframePacket(into: packet, in: index, error: &readError) {
                if listed >= time { found = listed }
            }
            if found == time {
                // Its own packet whole, and no read on the way failed (a seek that landed past
                // the end of a file cut short said nothing about this keyframe).
                try input.checkReads()
                if input.isCut(packet.pointer) {
                    throw MediaError.noFrame(time: seconds(forPts: time), reason: "the file ends inside the keyframe's packet")
                }
                return try shownKeyframe(packet, time: time)
            }
            // A forward seek that lands past the keyframe will again: backward from now on.
            if found != nil, start == seeks.first, start?.forward == true { keyframeSeeksBackward = true }
            packet.unref()
        }
        try checkReads(at: seconds(forPts: time))
        if let readError {
            throw MediaError.noFrame(time: seconds(forPts: time),
                                     reason: "the stream cannot be read from there (\(averrorText(readError))); the file may be truncated")
        }
        throw MediaError.noFrame(time: seconds(forPts: time), reason: "no keyframe can be read there")
    }

    /// The keyframe in `packet`, decoded, presented at `time` (its time in the index), as the
    /// session's answer: the position is good for the next keyframe in file order.
    private func shownKeyframe(_ packet: Packet, time: Int64) throws -> Frame {
        let frame = try decodeAlone(packet, time: time)
        try checkWhole(frame, at: seconds(forPts: time))
        frame.pts = time
        shown = frame
        next = nil
        needsSeek = false
        return frame
    }

    /// Reads packets up to the next of the stream the demuxer flags as a keyframe, into `packet`;
    /// the keyframe of `index` it is, or nil at the end of the stream (or a read that fails,
    /// whose code goes to `error`). The others are dropped unread by the decoder.
    /// The corresponding C function is `av_read_frame`.
    private func readKeyframePacket(into packet: Packet, in index: KeyframeIndex, error: inout Int32?) throws -> Int64? {
        let none = cav_nopts_value()
        while true {
            try input.deadline.check()
            packet.unref()
            let read = av_read_frame(input.context, packet.pointer)
            if read < 0 {
                if read == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
                if read != cav_error_eof() { error = read }
                return nil
            }
            let p = packet.pointer.pointee
            guard p.stream_index == stream.pointee.index, p.flags & AV_PKT_FLAG_KEY != 0,
                  let listed = index.keyframe(presentedAt: p.pts == none ? nil : p.pts, decodedAt: p.dts == none ? nil : p.dts)
            else { continue }
            return listed
        }
    }

    /// The picture of the keyframe in `packet` (listed at `time`), decoded alone: the packet
    /// sent, then the decoder drained, which gives what it holds back for reordering, then
    /// emptied for the next. The packet is used up.
    /// The corresponding C functions are `avcodec_send_packet`, `avcodec_receive_frame` and
    /// `avcodec_flush_buffers`.
    private func decodeAlone(_ packet: Packet, time: Int64) throws -> Frame {
        defer {
            packet.unref()
            decoder.flush()
        }
        let sent = avcodec_send_packet(decoder.context, packet.pointer)
        if sent < 0 {
            throw MediaError.noFrame(time: seconds(forPts: time), reason: "the keyframe cannot be decoded (\(averrorText(sent)))")
        }
        _ = avcodec_send_packet(decoder.context, nil)
        var picture: Frame?
        while true {
            let frame = try Frame()
            guard avcodec_receive_frame(decoder.context, frame.pointer) == 0 else { break }
            if picture == nil { picture = frame }
        }
        guard let picture else {
            throw MediaError.noFrame(time: seconds(forPts: time), reason: "the keyframe gives no picture")
        }
        return picture
    }

    /// A seek to a keyframe: `av_seek_frame` to `target`, backward unless `forward`.
    struct KeyframeSeek: Equatable {
        var target: Int64
        var forward: Bool
    }

    /// The seeks that reach the keyframe of `index` presented at `time`, the first the most
    /// direct and each of the others landing earlier, in case one lands past it.
    ///
    /// Demuxers that seek by presentation time (`AVFMT_SEEK_TO_PTS`: QuickTime and MP4) are
    /// sought backward to it. Any other is sought forward to the keyframe's decode time, which
    /// lands on it whether the demuxer finds keyframes by presentation time (Matroska's cues) or
    /// searches packets by decode time (MPEG transport streams, FLV; sought to the presentation
    /// time, these land on a later packet, past the keyframe where frames are reordered); then
    /// backward to it, landing at or before the keyframe where it does not start a packet of
    /// the container (MPEG program streams, whose small frames share one), which every later
    /// keyframe seek of the session then does first (`keyframeSeeksBackward`). Then backward to
    /// the keyframe before, and to the first.
    func keyframeSeeks(to time: Int64, in index: KeyframeIndex) -> [KeyframeSeek] {
        let byPresentation = (input.context.pointee.iformat?.pointee.flags ?? 0) & AVFMT_SEEK_TO_PTS != 0
        func before(_ keyframe: Int64) -> KeyframeSeek {
            KeyframeSeek(target: byPresentation ? keyframe : index.decodeTime(of: keyframe) ?? keyframe, forward: false)
        }
        var seeks = [before(time)]
        if !byPresentation && !keyframeSeeksBackward {
            seeks.insert(KeyframeSeek(target: index.decodeTime(of: time) ?? time, forward: true), at: 0)
        }
        if let previous = index.previous(before: time) { seeks.append(before(previous)) }
        if let first = index.times.first, first < time, seeks.last != before(first) { seeks.append(before(first)) }
        return seeks
    }
}

extension DecodeSession {
    /// `frame` as an upright `width` × `height` RGB picture (the size after the display
    /// matrix's turn): scaled, tone-mapped if HDR (`PictureConverter`), then turned.
    /// - Throws: `MediaError.imageFailed`, `.library` (the tone mapper's graph).
    func uprightPicture(of frame: Frame, width: Int, height: Int) throws -> RGBImage {
        let turns = clockwiseQuarterTurns
        let (w, h) = turns % 2 == 1 ? (height, width) : (width, height)
        return try converter.picture(of: frame, width: w, height: h).rotated(clockwiseQuarterTurns: turns)
    }

    /// `frame` as an upright `width` × `height` tile: as `uprightPicture`, but an SDR frame is
    /// scaled by `scaler` (two steps, cheaper for a large shrink); HDR ones are tone-mapped by the
    /// session's converter, as thumbnails.
    func uprightTile(of frame: Frame, width: Int, height: Int, scaler: TileScaler) throws -> RGBImage {
        guard converter.toneMappedColor(of: frame) == nil else {
            return try uprightPicture(of: frame, width: width, height: height)
        }
        let turns = clockwiseQuarterTurns
        let (w, h) = turns % 2 == 1 ? (height, width) : (width, height)
        return try scaler.scale(frame, width: w, height: h).rotated(clockwiseQuarterTurns: turns)
    }
}
