import CAV

/// Decodes a text subtitle stream once and writes its SubRip and WebVTT jobs as the ffmpeg
/// command writes them (`-map 0:s:N -c:s srt`, `-c:s webvtt`), cue by cue as the packets come:
/// nothing is held but the decoder's and encoders' state and the muxers' I/O buffers.
///
/// Each packet is decoded with its times shifted by the file's start time, as the ffmpeg command
/// shifts them before its decoder sees them; libavcodec then times the subtitle from the packet
/// (microseconds) and gives its end from the decoder or the packet's duration. A packet that does
/// not decode, and a subtitle without a time, is left out and counted; the others are kept.
final class TextSubtitleSink: TrackSink {
    let jobs: [TrackJob]
    private(set) var packetsSeen = 0
    private let source: SourceStream
    private let decoder: SubtitleDecoder
    private let files: [SubtitleFile]
    private var skipped = 0

    /// - Parameter jobs: the stream's `.subtitleSRT` and `.subtitleWebVTT` jobs.
    /// - Throws: `MediaError.trackUnavailable` (no decoder or encoder), `.output`, `.library`.
    init(jobs: [TrackJob], source: SourceStream, deadline: Deadline) throws {
        self.jobs = jobs
        self.source = source
        let decoder = try SubtitleDecoder(source: source)
        self.decoder = decoder
        files = try jobs.map { job in
            try SubtitleFile(format: job.output == .subtitleSRT ? .srt : .webvtt, decoder: decoder,
                             source: source, finalPath: job.path, deadline: deadline)
        }
    }

    /// Decodes the packet, its times shifted for the decoder and put back after (the stream's
    /// other sinks read them), and writes the subtitle it gives to every file.
    func consume(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        packetsSeen += 1
        try write(decoder.decode(packet, shiftedBy: source.offset, skipped: &skipped))
    }

    /// Takes what the decoder still holds, then completes the files.
    func finish(_ end: PassEnd) throws -> [ExtractedTrack] {
        // A decoder that fails here loses nothing written; the ffmpeg command logs it and goes on.
        if let last = try? decoder.flush() { try write(last) }
        return try files.map { file in
            ExtractedTrack(path: file.finalPath, size: try file.finish(), units: file.cues,
                           skippedPackets: skipped, cutShort: end.cutShort)
        }
    }

    /// Writes a subtitle to every file, as the ffmpeg command does: one with nothing to show is
    /// not written, one without a time is left out and counted.
    private func write(_ subtitle: Subtitle?) throws {
        guard let subtitle, !subtitle.isEmpty else { return }
        guard subtitle.pts != nil else {
            skipped += 1
            return
        }
        subtitle.moveStartIntoTime()
        for file in files { try file.write(subtitle) }
    }
}
