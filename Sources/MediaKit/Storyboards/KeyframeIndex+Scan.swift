import CAV

/// Finding a stream's keyframes without decoding.
extension KeyframeIndex {
    /// The keyframes of the session's stream. QuickTime and MP4 files list every sample in the
    /// demuxer's index with its sync flag, so only the keyframes' own packets are read
    /// (`fromSampleTable`); any other file is demuxed whole (`byDemuxing`). The session needs a
    /// seek afterwards (`needsSeek`).
    /// An index made through a read that failed would lack keyframes past it for as long as it is
    /// kept: such a scan throws instead.
    /// - Throws: `MediaError.timedOut` past the session's deadline, `.library` when a seek fails,
    ///   `.unreadable` when a read failed (`InputFile.checkReads`).
    static func scan(_ session: DecodeSession) throws -> KeyframeIndex {
        session.needsSeek = true
        let index = try fromSampleTable(session) ?? byDemuxing(session)
        try session.input.checkReads()
        return index
    }

    /// Every packet of the stream read from the start (the other streams' are discarded by the
    /// demuxer), nothing decoded: the presentation and decode times of those flagged
    /// `AV_PKT_FLAG_KEY` (either one for a packet that lacks the other). A keyframe without a
    /// presentation time in a stream whose frames are reordered (an MPEG program stream's, when
    /// it shares a pack with the frame before) is presented when the next reference frame is
    /// decoded: at that packet's decode time. A read that fails ends the scan: a truncated file
    /// has the keyframes up to its cut.
    ///
    /// A session just opened is read from where the opening left it (the packets read to analyse
    /// the streams still waiting): a seek to the first frame could land past the first keyframe,
    /// as in MPEG program and transport streams, whose demuxers seek by decode time to any packet.
    /// A session already used is sought forward to a time before its first frame: the demuxer's
    /// first packet.
    /// The corresponding C functions are `av_seek_frame` and `av_read_frame`.
    static func byDemuxing(_ session: DecodeSession) throws -> KeyframeIndex {
        let input = session.input
        let stream = session.stream.pointee.index
        if !session.isWhereOpened {
            let sought = av_seek_frame(input.context, stream, session.startPts - 60 * session.oneSecond, 0)
            try timedOut(session, sought)
            // Demuxers that cannot seek at all (rare) fail here.
            if sought < 0 {
                throw MediaError.library(function: "av_seek_frame", code: sought, message: averrorText(sought))
            }
        }
        session.isWhereOpened = false
        let packet = try Packet()
        var keyframes: [(time: Int64, decodeTime: Int64)] = []
        let none = cav_nopts_value()
        let reorders = session.stream.pointee.codecpar.pointee.video_delay > 0
        // A keyframe read without a presentation time, waiting for the next reference frame's.
        var untimed: Int?
        while true {
            let read = av_read_frame(input.context, packet.pointer)
            try timedOut(session, read)
            guard read >= 0 else { break }
            let p = packet.pointer.pointee
            defer { packet.unref() }
            guard p.stream_index == stream, p.pts != none || p.dts != none else { continue }
            // Frames are shown in the order of their presentation times; a reference frame
            // (presented later than decoded, or untimed) after the keyframe is decoded when the
            // keyframe is shown (MPEG's rule for anchor frames).
            if let waiting = untimed, p.dts != none, p.pts == none || p.pts > p.dts {
                keyframes[waiting].time = p.dts
                untimed = nil
            }
            guard p.flags & AV_PKT_FLAG_KEY != 0 else { continue }
            if let waiting = untimed { keyframes[waiting].time = keyframes[waiting].decodeTime }
            untimed = p.pts == none && reorders ? keyframes.count : nil
            keyframes.append((p.pts != none ? p.pts : p.dts, p.dts != none ? p.dts : p.pts))
        }
        return KeyframeIndex(keyframes: keyframes)
    }

    /// For libavformat's QuickTime/MP4 demuxer, whose index lists every sample of the stream with
    /// its decode time and sync flag (from `stts`, `stss`): the file is sought to each keyframe
    /// listed and its packet read for its presentation time (the decode time plus the `ctts`
    /// offset, which only the packet carries). Nil, for a whole demux instead, when the file is
    /// not read by that demuxer, more than a quarter of the samples are keyframes (intra-only
    /// video, cheaper demuxed whole), the index ends well before the stream does (a fragmented MP4
    /// lists the fragments it has read), or a packet read is not the keyframe listed (not at its
    /// byte position, or not flagged), or cannot be read (data cut short of the index).
    /// The corresponding C functions are `avformat_index_get_entry`, `av_seek_frame` and `av_read_frame`.
    static func fromSampleTable(_ session: DecodeSession) throws -> KeyframeIndex? {
        let input = session.input, stream = session.stream
        guard let format = input.context.pointee.iformat, String(cString: format.pointee.name).hasPrefix("mov,") else {
            return nil
        }
        let count = Int(avformat_index_get_entries_count(stream))
        guard count > 0, let last = avformat_index_get_entry(stream, Int32(count - 1)) else { return nil }
        if let end = session.declaredEnd ?? session.containerEnd,
           last.pointee.timestamp < session.startPts + (end - session.startPts) * 9 / 10 {
            return nil
        }
        var listed: [(timestamp: Int64, position: Int64)] = []
        for i in 0..<count {
            guard let entry = avformat_index_get_entry(stream, Int32(i)), cav_index_entry_is_keyframe(entry) != 0 else { continue }
            listed.append((entry.pointee.timestamp, entry.pointee.pos))
        }
        // Mostly keyframes (intra-only video: MJPEG, ProRes, …): a seek a packet would cost more
        // than reading them all.
        guard listed.count * 4 <= count else { return nil }
        let packet = try Packet()
        let index = stream.pointee.index
        session.isWhereOpened = false
        var keyframes: [(time: Int64, decodeTime: Int64)] = []
        keyframes.reserveCapacity(listed.count)
        let none = cav_nopts_value()
        for entry in listed {
            // Forward: the demuxer seeks by presentation time, so a keyframe's decode time sought
            // backward lands on the keyframe before; forward, on this one (or, were its offset
            // larger than the gap, an earlier packet, read past below).
            let sought = av_seek_frame(input.context, index, entry.timestamp, 0)
            try timedOut(session, sought)
            guard sought >= 0 else { return nil }
            var found: (time: Int64, decodeTime: Int64)?
            while found == nil {
                let read = av_read_frame(input.context, packet.pointer)
                try timedOut(session, read)
                guard read >= 0 else { return nil }
                let p = packet.pointer.pointee
                defer { packet.unref() }
                // Known by its place in the file (the demuxer shifts the decode times it reads out).
                guard p.stream_index == index, p.pos < entry.position else {
                    guard p.stream_index == index else { continue }
                    guard p.pos == entry.position, p.flags & AV_PKT_FLAG_KEY != 0 else { return nil }
                    found = (p.pts != none ? p.pts : p.dts, p.dts != none ? p.dts : p.pts)
                    continue
                }
            }
            if let found { keyframes.append(found) }
        }
        return KeyframeIndex(keyframes: keyframes)
    }

    /// Throws `MediaError.timedOut` when `code` says the interrupt callback stopped the call, or
    /// the session's deadline has passed.
    private static func timedOut(_ session: DecodeSession, _ code: Int32) throws {
        let input = session.input
        if code == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
    }
}
