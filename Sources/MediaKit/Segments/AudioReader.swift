import CAV

/// A file's first audio stream decoded to mono samples over stretches of time on the video's
/// clock (seconds from the first video frame, as thumbnails and scene cuts are timed): what an
/// episode's fingerprints and the placing of a shared stretch's ends read. Every read of the file
/// is checked: a stretch read through a failing read throws, it is never given short.
/// Used by one thread at a time.
final class AudioReader {
    let input: InputFile
    let stream: UnsafeMutablePointer<AVStream>
    /// Seconds of the file's own clock at the video's first frame: an audio stream that starts
    /// later (or earlier) than the video is placed by it.
    let origin: Double
    /// The film's length in seconds on the video's clock.
    let duration: Double
    /// The stream's rate, samples a second.
    let sampleRate: Int32
    private let decoder: AudioDecoder
    private let packet: Packet
    private let frame: Frame
    private let timeBase: AVRational
    /// Called between stretches of decoding (`AnalysisRequest.pause`).
    private let pause: () throws -> Void
    /// Whether anything was read since the file was opened: a stretch from the start needs no seek before.
    private var hasRead = false

    /// Broken packets in a row past which the stream is taken as damaged.
    static let failuresInARow = 50

    /// Opens `file`'s first audio stream; nil when it has none.
    /// - Throws: `MediaError.notMedia`, `.timedOut`, `.unreadable`, `.io`, `.sourceChanged` (the file
    ///   is not of `file.size` bytes), `.damaged` (no decoder), `.library`.
    init?(file: MediaFile, deadline: Deadline, pause: @escaping () throws -> Void = {}) throws {
        input = try InputFile(path: file.path, deadline: deadline)
        input.clearReadFault()
        guard input.source.size == file.size else {
            throw MediaError.sourceChanged(reason: "it has \(input.source.size) bytes, not \(file.size)")
        }
        let streams = input.streams
        guard let audio = streams.first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }) else {
            return nil
        }
        for other in streams where other != audio { other.pointee.discard = AVDISCARD_ALL }
        stream = audio
        timeBase = audio.pointee.time_base
        sampleRate = max(1, audio.pointee.codecpar.pointee.sample_rate)
        let video = streams.first {
            $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        let ctx = input.context.pointee
        let none = cav_nopts_value()
        let formatStart = ctx.start_time == none ? nil : Double(ctx.start_time) / Double(AV_TIME_BASE)
        func start(_ s: UnsafeMutablePointer<AVStream>?) -> Double? {
            guard let s, s.pointee.start_time != none else { return nil }
            return Double(s.pointee.start_time) * av_q2d(s.pointee.time_base)
        }
        // As `DecodeSession.startPts`: the video's start, else the container's.
        origin = start(video) ?? formatStart ?? start(audio) ?? 0
        let containerEnd = ctx.duration != none && ctx.duration > 0
            ? (formatStart ?? 0) + Double(ctx.duration) / Double(AV_TIME_BASE) : nil
        let origin = self.origin
        let videoLength = video.flatMap { v in
            v.pointee.duration != none && v.pointee.duration > 0 ? Double(v.pointee.duration) * av_q2d(v.pointee.time_base) : nil
        }
        duration = max(0, videoLength ?? containerEnd.map { $0 - origin } ?? 0)
        decoder = try AudioDecoder(stream: audio)
        packet = try Packet()
        frame = try Frame()
        self.pause = pause
    }

    /// The stream's mono samples at `rate` from `start` up to `end` (seconds on the video's clock),
    /// in the order they play, each chunk with its first sample's time: from the first sample at
    /// or after `start` (the stream's first where it starts later) to the last before `end` (its
    /// last where it ends sooner). `pause` is called between chunks.
    /// - Throws: `MediaError.unreadable` when a read on the way failed (nothing given so far can be
    ///   trusted, whatever `chunk` did with it), `.timedOut`, `.damaged` (too many broken packets in
    ///   a row), `.library`, and what `chunk` throws.
    func read<Sample: ResampledSample>(from start: Double, to end: Double, rate: Int32,
                                       chunk: (Double, UnsafeBufferPointer<Sample>) throws -> Void) throws {
        input.clearReadFault()
        try seek(before: start)
        var resampler: AudioResampler?
        // The resampler's output stays on the clock of the first frame it took: its first
        // sample's time, and the samples it gave since.
        var clock = 0.0, given = 0, sincePause = 0
        var done = false
        let perSecond = Double(rate)
        func give(_ samples: UnsafeBufferPointer<Sample>) throws {
            let at = clock + Double(given) / perSecond
            given += samples.count
            let skip = min(samples.count, max(0, Int(((start - at) * perSecond).rounded())))
            let last = min(samples.count, max(skip, Int(((end - at) * perSecond).rounded())))
            if last > skip { try chunk(at + Double(skip) / perSecond, UnsafeBufferPointer(rebasing: samples[skip..<last])) }
            done = last < samples.count || at + Double(samples.count) / perSecond >= end
            sincePause += samples.count
            // About a second of audio at a time.
            if sincePause >= Int(rate) { sincePause = 0; try pause() }
        }
        try decodeFrames { frame, time in
            if let current = resampler, current.matches(frame) {
                try give(try current.convert(frame))
            } else {
                // The first frame, or one of another format: a new resampler, on this frame's clock.
                if let old = resampler { try give(try old.convert(nil)) }
                let made = try AudioResampler(from: frame, rate: rate, format: Sample.sampleFormat)
                resampler = made
                clock = time
                given = 0
                try give(try made.convert(frame))
            }
            return !done
        }
        if !done, let resampler { try give(try resampler.convert(nil)) }
        try input.checkReads()
    }

    /// Moves to a little before `seconds`, unless nothing was read yet and the stream starts
    /// after it. The corresponding C function is `avformat_seek_file`.
    private func seek(before seconds: Double) throws {
        let streamStart = stream.pointee.start_time == cav_nopts_value() ? origin
            : Double(stream.pointee.start_time) * av_q2d(timeBase)
        defer { hasRead = true }
        if !hasRead && origin + seconds <= streamStart + 1 { return }
        // A second ahead: the demuxer lands on a packet at or before the time asked, the decoder's
        // first frames after a seek may be incomplete, and the samples before `seconds` are dropped.
        let target = Int64(((origin + seconds - 1) * Double(AV_TIME_BASE)).rounded(.down))
        let sought = avformat_seek_file(input.context, -1, Int64.min, target, target, 0)
        try input.deadline.check()
        if sought < 0 {
            throw MediaError.library(function: "avformat_seek_file", code: sought, message: averrorText(sought))
        }
        decoder.flush()
    }

    /// Each frame decoded from where the file stands with its time on the video's clock, until
    /// `body` returns false or the stream ends (the decoder then drained). A read that fails ends
    /// the stream; the caller checks the reads.
    /// The corresponding C functions are `av_read_frame`, `avcodec_send_packet` and `avcodec_receive_frame`.
    private func decodeFrames(_ body: (Frame, Double) throws -> Bool) throws {
        let index = stream.pointee.index
        let none = cav_nopts_value()
        let base = av_q2d(timeBase)
        var next: Double?
        var failures = 0
        func receive() throws -> Bool {
            while true {
                let got = avcodec_receive_frame(decoder.context, frame.pointer)
                if got == cav_error_eagain() || got == cav_error_eof() { return true }
                if got < 0 { return true }
                defer { av_frame_unref(frame.pointer) }
                let f = frame.pointer.pointee
                let stamp = f.best_effort_timestamp != none ? f.best_effort_timestamp : f.pts
                let time = stamp != none ? Double(stamp) * base - origin : next ?? 0
                next = time + Double(f.nb_samples) / Double(max(1, f.sample_rate))
                guard f.nb_samples > 0 else { continue }
                if try !body(frame, time) { return false }
            }
        }
        while true {
            try input.deadline.check()
            let read = av_read_frame(input.context, packet.pointer)
            if read == cav_error_exit() { throw MediaError.timedOut(seconds: input.deadline.seconds) }
            guard read >= 0 else { break }
            defer { packet.unref() }
            guard packet.pointer.pointee.stream_index == index else { continue }
            input.noteIfCut(packet.pointer)
            let sent = avcodec_send_packet(decoder.context, packet.pointer)
            if sent < 0 && sent != cav_error_eagain() {
                failures += 1
                if failures > Self.failuresInARow {
                    throw MediaError.damaged(reason: "\(failures) audio packets in a row do not decode")
                }
                continue
            }
            failures = 0
            if try !receive() { return }
        }
        // The end: what the decoder still holds.
        _ = avcodec_send_packet(decoder.context, nil)
        _ = try receive()
        decoder.flush()
    }
}
