import CAV

/// One video stream of one file, open for decoding, with its position: the frame last shown and
/// the one after it. A later request at a later time can continue decoding forward from here
/// instead of seeking back to a keyframe (see `canContinue(to:)`).
///
/// Owns its `InputFile`, `VideoDecoder`, `Packet`, `PictureConverter` (with its swscale context
/// and filter graph) and frames; everything is freed when the session goes. Used by one thread
/// at a time: `DecodeSessionPool` hands it out for one request and takes it back after; hence
/// `@unchecked Sendable`.
///
/// The decoder holds nearly all of a session's memory (its frames: `memoryEstimate`), the open
/// file very little. So a session can sleep (`sleep()`: the decoder and frames freed, the file
/// kept open, the position lost) and wake with a new decoder (`wake(threads:)`), which costs a
/// decoder's opening and a seek but not the file's opening and analysis.
///
/// Times inside are in the stream's time base (`pts`); a request's seconds count from the
/// stream's first frame (`startPts`).
final class DecodeSession: @unchecked Sendable {
    /// Which file version and stream a session decodes, and for which kind of request.
    struct Key: Hashable, Sendable {
        var file: MediaFile
        var streamIndex: Int
        /// Frame-accurate requests decode runs of frames (frame threading: several frames in
        /// flight at once); nearest-keyframe requests decode one keyframe (slice threading, which
        /// spreads one frame over the threads and, unlike frame threading, holds no frame back).
        var pick: FramePick
    }

    let key: Key
    /// Frames to RGB at the output size: swscale, or tone mapping for PQ and HLG.
    let converter: PictureConverter
    /// Quarter turns clockwise that make the picture upright (the display matrix).
    let clockwiseQuarterTurns: Int

    let input: InputFile
    let stream: UnsafeMutablePointer<AVStream>
    /// The decoder, nil while the session sleeps (`sleep()`, `wake(threads:)`).
    var openDecoder: VideoDecoder?
    /// The open decoder; only for a session awake (`isAwake`).
    var decoder: VideoDecoder {
        guard let openDecoder else { preconditionFailure("a decode session used while asleep") }
        return openDecoder
    }
    let packet: Packet
    let timeBase: AVRational
    /// The stream's first presentation time: the time 0 of requests.
    let startPts: Int64
    /// One frame's duration, for frames that do not carry one.
    let frameDuration: Int64
    /// Where the stream says it ends, if it says.
    let declaredEnd: Int64?
    /// Where the container says the file ends, in this stream's time base.
    let containerEnd: Int64?

    // The position.
    /// The frame the last request answered with: presented at or before its time.
    var shown: Frame?
    /// The frame after `shown`, already decoded, presented after the last request's time.
    var next: Frame?
    /// The decoder must be flushed and the file sought before the position means anything.
    var needsSeek = true
    /// Nothing was read or sought since the file was opened: the next packet read is the first
    /// (`KeyframeIndex.byDemuxing` reads from here rather than seek).
    var isWhereOpened = true
    /// A keyframe seek forward to a keyframe's decode time landed past it: the storyboard's
    /// keyframe seeks go backward (`DecodeSession.keyframeSeeks(to:in:)`).
    var keyframeSeeksBackward = false
    /// Just after a seek: frames before the first keyframe are dropped (they may lack references).
    var awaitingKeyframe = false
    /// While set, packets presented before this time are decoded only if other frames refer to
    /// them: a frame-accurate request skips the disposable frames (most B-frames) on its way from
    /// the keyframe to its time (`admission(of:)`).
    var skipsUnreferencedBefore: Int64?
    /// The latest presentation time of a packet left out, or sent to be decoded only if other
    /// frames refer to it, since the request began or the last seek.
    var latestSkippable: Int64?
    /// For an AV1 stream, which packets no later frame refers to (its decoder cannot skip them).
    var av1Units: AV1TemporalUnits?
    /// Reading reached the end of the input (or a read failed) since the last seek.
    var inputEnded = false
    var drained = false
    /// A keyframe was sent alone, with the end of the input after it, in keyframes-only
    /// decoding: the decoder's end is that keyframe's, not the stream's (`sendsKeyframesAlone`).
    var drainingKeyframe = false
    /// Why reading stopped before the end of the file, if it did.
    var readError: Int32?
    var lastPts: Int64?
    /// An empty frame kept for the next `avcodec_receive_frame` when the last one gave nothing.
    var spare: Frame?
    /// The end of the latest frame or packet of the stream seen since the last seek: how far
    /// the stream was read, even where keyframes-only decoding skipped the frames.
    var reachedEnd: Int64 = .min
    /// The frames out of the decoder, timed in its order; its `pending` are the presentation
    /// times of the packets sent whole since the last seek whose frames have not come out yet
    /// (frames left out on purpose are not counted): one still there once later frames came out
    /// did not decode.
    var order = FrameOrder()

    // The current request's budget, and what it cost.
    private(set) var limits: ThumbnailLimits
    var framesDecoded = 0
    var seeks = 0
    var failuresInARow = 0

    /// Opens `key.file.path` (or takes the file a probe just opened from `probed`) and, unless
    /// `threads` is nil, a decoder with that many threads for stream `key.streamIndex`, within
    /// `limits.timeout`. Without a decoder the session starts asleep (`wake(threads:)`).
    /// - Throws: `MediaError.notMedia`, `.timedOut`, `.noVideoStream` (the index is not a moving
    ///   picture stream), `.damaged` (no decoder), `.library`, `.sourceChanged` (the file is not of
    ///   `key.file.size` bytes), `.io`, `.unreadable`.
    init(key: Key, limits: ThumbnailLimits, probed: ProbedInputs? = nil,
         threads: Int? = VideoDecoder.maxThreads) throws {
        self.key = key
        self.limits = limits
        input = try InputFile.open(key.file.path, timeout: limits.timeout, takingFrom: probed)
        input.clearReadFault()
        guard input.source.size == key.file.size else {
            throw MediaError.sourceChanged(reason: "it has \(input.source.size) bytes, not \(key.file.size)")
        }
        let streams = input.streams
        guard streams.indices.contains(key.streamIndex) else { throw MediaError.noVideoStream(index: key.streamIndex) }
        let stream = streams[key.streamIndex]
        guard stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
              stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else {
            throw MediaError.noVideoStream(index: key.streamIndex)
        }
        // The demuxer then skips the other streams' packets instead of handing them out.
        for other in streams where other != stream { other.pointee.discard = AVDISCARD_ALL }
        self.stream = stream
        av1Units = AV1TemporalUnits(stream: stream)
        if let threads { openDecoder = try VideoDecoder(stream: stream, threading: key.pick.threading, threads: threads) }
        packet = try Packet()
        converter = PictureConverter(stream: stream)
        clockwiseQuarterTurns = ThumbnailGeometry.clockwiseQuarterTurns(rotation: StreamDescriber.rotation(stream))

        let s = stream.pointee, ctx = input.context.pointee
        let timeBase = s.time_base
        self.timeBase = timeBase
        let formatStart = ctx.start_time == cav_nopts_value() ? 0 : ctx.start_time
        startPts = s.start_time != cav_nopts_value() ? s.start_time
            : av_rescale_q(formatStart, cav_time_base_q(), timeBase)
        let rate = s.avg_frame_rate.num > 0 && s.avg_frame_rate.den > 0 ? s.avg_frame_rate : s.r_frame_rate
        let oneFrame = rate.num > 0 && rate.den > 0 ? av_rescale_q(1, av_inv_q(rate), timeBase) : 0
        frameDuration = max(1, oneFrame > 0 ? oneFrame : av_rescale_q(40_000, cav_time_base_q(), timeBase))
        declaredEnd = s.duration != cav_nopts_value() && s.duration > 0 ? startPts + s.duration : nil
        containerEnd = ctx.duration != cav_nopts_value() && ctx.duration > 0
            ? av_rescale_q(formatStart + ctx.duration, cav_time_base_q(), timeBase) : nil
    }

    /// Starts a request: a new deadline, a fresh budget of frames, reads checked afresh.
    func begin(limits: ThumbnailLimits) {
        self.limits = limits
        input.deadline.restart(seconds: limits.timeout)
        input.clearReadFault()
        framesDecoded = 0
        seeks = 0
        failuresInARow = 0
    }

    /// The decoder has given out its last frame: the position is at the end of the stream.
    var isDrained: Bool { drained && order.isEmpty }
}
