import CAV

/// The first pass over a video stream: every packet demuxed once, in file order, and only the
/// keyframes decoded (each boiled down to a `PictureSignature` and a `PictureTone`). What the
/// packets say (their times, sizes and keyframe flags) numbers every frame and hints where a cut
/// may hide.
struct StreamSurvey {
    /// Presentation times of every frame, ascending: a frame's number is its index here.
    let times: [Int64]
    /// Packet sizes in bytes, by frame number.
    let sizes: [Int]
    /// The frame numbers of the keyframes, ascending, and their pictures.
    let keyframes: [Int]
    let signatures: [Int: PictureSignature]
    /// The keyframes' tones (`EndCredits` looks for credits on black among them).
    let tones: [Int: PictureTone]

    /// Reads the session's stream from its first packet to its end, decoding keyframes alone
    /// (`AVDISCARD_NONKEY`, and only their packets sent).
    /// - Throws: `MediaError.unreadable` where a read failed, `.damaged` where a keyframe does not
    ///   decode whole or the file is cut short, `.timedOut`, `.noFrame` for a stream without frames.
    /// Where `share` asks (another request waits for a decoder), the decoder steps aside between
    /// two packets: what it holds is drained first, and a new one goes on; while reads are
    /// served, it holds still between two packets (`DecoderShare.holdWhileBusy`).
    init(_ session: DecodeSession, pictures: PictureMaker, share: DecoderShare? = nil, progress: (Double) -> Void) throws {
        let input = session.input
        var decoder = session.decoder
        if !session.isWhereOpened { try session.seek(to: session.startPts - 60 * session.oneSecond) }
        session.isWhereOpened = false
        session.needsSeek = true
        decoder.keyframesOnly = true
        defer { decoder.keyframesOnly = false }
        let none = cav_nopts_value()
        let packet = try Packet()
        var packets: [(time: Int64, size: Int, isKey: Bool)] = []
        var keyframePictures: [Int64: (signature: PictureSignature, tone: PictureTone)] = [:]
        func keep(_ frame: Frame) throws {
            keyframePictures[frame.pts] = (try pictures.signature(of: frame), PictureTone(of: frame))
        }
        // Each keyframe's picture at its own packet's time: an H.264 decoder given keyframes
        // alone may give them out of order (an open GOP's keyframe before the IDR frame before
        // it), where `FrameOrder` would swap their times. DivX's packed B-frames, whose packets
        // carry other frames' times, are timed by the order the decoder gives them out.
        let timesByOrder = decoder.context.pointee.codec_id == AV_CODEC_ID_MPEG4
        var readCount = 0
        while true {
            try input.deadline.check()
            let read = av_read_frame(input.context, packet.pointer)
            if read < 0 {
                if read == cav_error_exit() || input.deadline.hasPassed { throw MediaError.timedOut(seconds: input.deadline.seconds) }
                try input.checkReads()
                if read != cav_error_eof() {
                    throw MediaError.damaged(reason: "the video stream cannot be read to its end (\(averrorText(read)))")
                }
                break
            }
            defer { packet.unref() }
            let p = packet.pointer.pointee
            guard p.stream_index == session.stream.pointee.index else { continue }
            input.noteIfCut(packet.pointer)
            let time = p.pts != none ? p.pts : p.dts != none ? p.dts : (packets.last.map { $0.time + session.frameDuration } ?? session.startPts)
            let isKey = p.flags & AV_PKT_FLAG_KEY != 0
            packets.append((time, Int(p.size), isKey))
            readCount += 1
            if readCount % 256 == 0 { progress(Double(max(0, p.pos)) / Double(max(1, input.source.size))) }
            // At every packet, not only at keyframes: between two, the reading goes on (a film's
            // whole length is read), and a read being served is to have the disk to itself.
            do {
                try share?.holdWhileBusy()
            } catch is DecoderShare.SteppedAside {
                try pictures.drain(decoder, each: keep)
                try share?.stepAside()
                decoder = session.decoder
                decoder.keyframesOnly = true
            }
            guard isKey else { continue }
            try pictures.send(packet, to: decoder, whole: timesByOrder, each: keep)
        }
        try pictures.drain(decoder, each: keep)
        try input.checkReads()
        if let fault = input.source.fault { throw MediaError.damaged(reason: "\(fault)") }
        packets.sort { $0.time < $1.time }
        times = packets.map(\.time)
        sizes = packets.map(\.size)
        guard !times.isEmpty else { throw MediaError.noFrame(time: 0, reason: "the video stream has no frame") }
        var keys: [Int] = [], signatures: [Int: PictureSignature] = [:], tones: [Int: PictureTone] = [:]
        for (number, packet) in packets.enumerated() where packet.isKey {
            guard let (signature, tone) = keyframePictures[packet.time] else {
                throw MediaError.damaged(reason: "the keyframe at \(session.seconds(forPts: packet.time)) s gives no picture")
            }
            keys.append(number)
            signatures[number] = signature
            tones[number] = tone
        }
        // The first frame starts the first scene: a stream that does not start on a keyframe
        // (an MPEG stream cut anywhere) has its first pictures compared from the first keyframe on.
        keyframes = keys
        self.signatures = signatures
        self.tones = tones
    }

    /// The number of the frame presented at `time`, if one is.
    func frame(at time: Int64) -> Int? {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low < times.count && times[low] == time ? low : nil
    }
}
