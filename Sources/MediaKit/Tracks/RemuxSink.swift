import CAV

/// Copies a stream's packets into a file of its own without decoding them: audio and video into
/// Matroska, ASS/SSA into an `.ass` file, PGS into `.sup`, other picture subtitles into Matroska.
final class RemuxSink: TrackSink {
    let jobs: [TrackJob]
    private(set) var packetsSeen = 0
    private let source: SourceStream
    private let file: PendingFile
    private let output: MuxedOutput
    private var lastDts = cav_nopts_value()
    private var written = 0
    private var skipped = 0

    /// Creates the temporary file for `job` and writes its header.
    /// - Throws: `MediaError.output` or `.library` (the muxer refuses the stream).
    init(job: TrackJob, source: SourceStream, deadline: Deadline) throws {
        guard let muxer = job.output.muxerName else {
            throw MediaError.trackUnavailable(stream: source.index, reason: "\(job.output) is not a remux")
        }
        jobs = [job]
        self.source = source
        file = try PendingFile(finalPath: job.path)
        output = try MuxedOutput(muxer: muxer, path: file.temporaryPath, source: source, language: job.language,
                                 deadline: deadline)
    }

    /// Writes the packet with its times shifted to the file's start and rescaled to the output's
    /// time base. A packet without any timestamp, or whose decoding time goes back (damage), is
    /// left out and counted: the muxer would refuse it.
    ///
    /// The demuxer's packet is written as it is, its timing fields changed for the write and put
    /// back after (other sinks of the stream read them): `av_write_frame` takes a reference of its
    /// own, so a copy here would only add an allocation per packet.
    func consume(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        packetsSeen += 1
        let saved = (packet.pointee.pts, packet.pointee.dts, packet.pointee.duration,
                     packet.pointee.stream_index, packet.pointee.pos)
        defer {
            (packet.pointee.pts, packet.pointee.dts, packet.pointee.duration,
             packet.pointee.stream_index, packet.pointee.pos) = saved
        }
        let p = packet
        let none = cav_nopts_value()
        let reordered = source.codecParameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        if p.pointee.pts == none { p.pointee.pts = p.pointee.dts }
        if p.pointee.dts == none && !reordered { p.pointee.dts = p.pointee.pts }
        guard p.pointee.pts != none else {
            skipped += 1
            return
        }
        p.pointee.pts -= source.offset
        if p.pointee.dts != none { p.pointee.dts -= source.offset }
        av_packet_rescale_ts(p, source.timeBase, output.timeBase)
        let dts = p.pointee.dts
        if dts != none && lastDts != none && dts < lastDts {
            skipped += 1
            return
        }
        p.pointee.stream_index = 0
        p.pointee.pos = -1
        try output.write(p)
        if dts != none { lastDts = dts }
        written += 1
    }

    func finish(_ end: PassEnd) throws -> [ExtractedTrack] {
        try output.finish()
        let size = try file.commit()
        return [ExtractedTrack(path: file.finalPath, size: size, units: written, skippedPackets: skipped, cutShort: end.cutShort)]
    }
}
