import CAV

/// Reads a picture subtitle stream (PGS, DVD, DVB, XSUB) into text: each event's picture decoded,
/// read with Tesseract (`PictureReader`), and written as SubRip with the picture's times. Takes the
/// stream's `.subtitleSRTReadFromPictures` job (every event) and `.subtitleSRTReadFromPicturesForced`
/// job (the forced events alone), either or both; each picture is read once for both.
///
/// An event starts at its picture's time (a DVD subpicture's start delay included) and ends where
/// the picture says (a DVD stop command, the packet's duration) or else where the next display set
/// begins: PGS has no end of its own, a display set without objects clears the screen. Display sets
/// that show the same text on, without a gap (a palette change fading it), are one event.
///
/// Pictures are prepared as they come and read in batches, on `lanes` threads at once.
final class PictureTextSink: TrackSink {
    /// The picture subtitle codecs read into text.
    static let codecs: Set<AVCodecID> = [AV_CODEC_ID_HDMV_PGS_SUBTITLE, AV_CODEC_ID_DVD_SUBTITLE,
                                         AV_CODEC_ID_DVB_SUBTITLE, AV_CODEC_ID_XSUB]
    let jobs: [TrackJob]
    private(set) var packetsSeen = 0
    private let source: SourceStream
    private let decoder: SubtitleDecoder
    private let reader: PictureReader
    private let deadline: Deadline
    private let pause: @Sendable () throws -> Void
    /// The file of every event, and the file of the forced ones, where their jobs are asked.
    private let all: CueFile?
    private let forced: CueFile?
    /// The event shown now, waiting for its end (the next display set, or the picture's own), and
    /// its lines ready to be read.
    private var shown: (event: ReadEvent, lines: [PictureReader.PreparedLine])?
    /// Events that have ended, waiting to be read in one batch.
    private var ended: [(event: ReadEvent, lines: [PictureReader.PreparedLine])] = []
    /// Written last, for the joining of an unchanged text shown on.
    private var lastWritten: ReadEvent?
    private var skipped = 0

    /// - Throws: `MediaError.trackUnavailable` (no decoder, or no Tesseract data for the
    ///   language), `.output`, `.library`.
    /// - Parameter reading: the threads reading at once, and the pause before each batch.
    init(jobs: [TrackJob], source: SourceStream, deadline: Deadline, reading: AnalysisRequest) throws {
        self.jobs = jobs
        self.source = source
        self.deadline = deadline
        pause = reading.pause
        guard let language = TextLanguages.dataName(forStored: jobs[0].language) else {
            throw MediaError.trackUnavailable(stream: source.index, reason: "no Tesseract data for the language \(jobs[0].language)")
        }
        decoder = try SubtitleDecoder(source: source)
        do {
            reader = try PictureReader(language: language, lanes: reading.threads)
        } catch {
            throw MediaError.trackUnavailable(stream: source.index, reason: "\(error)")
        }
        all = try jobs.first { $0.output == .subtitleSRTReadFromPictures }.map(CueFile.init)
        forced = try jobs.first { $0.output == .subtitleSRTReadFromPicturesForced }.map(CueFile.init)
    }

    /// Decodes the packet (its times shifted to the file's start for the decoder, put back after)
    /// and ends or starts the event it brings.
    func consume(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        packetsSeen += 1
        try deadline.check()
        let duration = packet.pointee.duration > 0
            ? av_rescale_q(packet.pointee.duration, source.timeBase, cav_time_base_q()) : nil
        // A packet may hold part of a display set (PGS segments demuxed one by one): no subtitle yet.
        guard let subtitle = decoder.decode(packet, shiftedBy: source.offset, skipped: &skipped) else { return }
        try take(subtitle, packetDuration: duration)
    }

    /// One decoded subtitle: the time of a display set ends the event shown before it; a picture
    /// starts the next.
    private func take(_ subtitle: Subtitle, packetDuration: Int64?) throws {
        subtitle.moveStartIntoTime()
        guard let start = subtitle.pts else {
            skipped += 1
            return
        }
        if let (event, lines) = shown {
            var ended = event
            ended.end = min(event.end, start)
            try queue(ended, lines)
            shown = nil
        }
        guard let picture = SubtitlePicture(subtitle) else { return }
        let stated = subtitle.value.end_display_time
        let end: Int64
        if stated > 0 && stated != UInt32.max {
            end = start + Int64(stated) * 1000
        } else if let packetDuration {
            end = start + packetDuration
        } else {
            end = .max  // until the next display set
        }
        shown = (ReadEvent(start: start, end: end, lines: [], isForced: picture.isForced), reader.prepare(picture))
    }

    /// Events read in one batch: enough to keep every lane busy between waits.
    private var batchSize: Int { 8 * reader.lanes }

    /// Queues an event that has ended for reading; reads the queue once it holds a batch.
    private func queue(_ event: ReadEvent, _ lines: [PictureReader.PreparedLine]) throws {
        ended.append((event, lines))
        if ended.count >= batchSize { try readEnded() }
    }

    /// Reads the events queued, and shows them in order.
    private func readEnded() throws {
        guard !ended.isEmpty else { return }
        try deadline.check()
        // The time spent paused (the background yielding to requests) is not the pass's own.
        let left = deadline.remaining
        try pause()
        if left.isFinite { deadline.restart(seconds: left) }
        let texts = reader.read(ended.map(\.lines))
        for (var event, lines) in zip(ended.map(\.event), texts) {
            event.lines = lines
            try show(event)
        }
        ended.removeAll(keepingCapacity: true)
    }

    /// Writes an event that has ended, or joins it to the one written last where it shows the
    /// same text on without a gap.
    private func show(_ event: ReadEvent) throws {
        guard event.end != .max, event.end > event.start else {
            skipped += 1
            return
        }
        guard !event.lines.isEmpty else {
            skipped += 1
            return
        }
        if var last = lastWritten, last.end == event.start, last.lines == event.lines, last.isForced == event.isForced {
            last.end = event.end
            lastWritten = last
            return
        }
        try write(lastWritten)
        lastWritten = event
    }

    private func write(_ event: ReadEvent?) throws {
        guard let event else { return }
        try all?.append(event)
        if event.isForced { try forced?.append(event) }
    }

    func finish(_ end: PassEnd) throws -> [ExtractedTrack] {
        try finishEach(end).map { try $0.get() }
    }

    /// Ends the last event (what the decoder still holds; an event whose end never came is left
    /// out and counted), then completes each file: the forced one fails where no event was forced.
    func finishEach(_ end: PassEnd) throws -> [Result<ExtractedTrack, MediaError>] {
        if let last = try? decoder.flush() { try take(last, packetDuration: nil) }
        if let (event, lines) = shown { try queue(event, lines) }
        shown = nil
        try readEnded()
        try write(lastWritten)
        lastWritten = nil
        return jobs.map { job in
            let file = job.output == .subtitleSRTReadFromPictures ? all : forced
            guard let file else { return .failure(.trackUnavailable(stream: source.index, reason: "not made")) }
            guard job.output == .subtitleSRTReadFromPictures || file.cues > 0 else {
                return .failure(.trackUnavailable(stream: source.index, reason: "no forced events"))
            }
            return Result {
                ExtractedTrack(path: job.path, size: try file.finish(), units: file.cues,
                               skippedPackets: skipped, cutShort: end.cutShort)
            }.mapError { failure in failure as? MediaError ?? .output(path: job.path.description, reason: "\(failure)") }
        }
    }
}

/// A SubRip file being written, its cues numbered as they come.
private final class CueFile {
    private let file: PendingFile
    private let output: AppendingFile
    private(set) var cues = 0

    /// - Throws: `MediaError.output`.
    init(_ job: TrackJob) throws {
        file = try PendingFile(finalPath: job.path)
        output = try AppendingFile(path: file.temporaryPath)
    }

    func append(_ event: ReadEvent) throws {
        cues += 1
        try output.append(Array(event.subRip(number: cues).utf8))
    }

    /// Completes the file under its final name; its size.
    /// - Throws: `MediaError.output`.
    func finish() throws -> Int64 {
        try output.finish()
        return try file.commit()
    }
}
