import CAV

/// Decodes a text subtitle stream once and writes its cues to the `.srt` and `.vtt` entries of
/// that stream, as they come (nothing is held but the cue waiting for its end).
///
/// A cue starts at the packet's time (shifted to the file's start) plus the decoder's start offset
/// and ends at its end offset, which libavcodec takes from the packet's duration; a cue without an
/// end ends where the next one starts, or at the end of the file. A packet that does not decode is
/// left out and counted, and the others are kept.
final class TextSubtitleSink: TrackSink {
    let entries: [TrackPlan.Entry]
    private(set) var packetsSeen = 0
    private let source: SourceStream
    private let decoder: SubtitleDecoder
    private let files: [PendingFile]
    private let writers: [CueWriter]
    private var waiting: (start: Int64, events: [String])?
    private var skipped = 0

    /// - Parameter paths: the final path of each entry, in the order of `entries`.
    /// - Throws: `MediaError.trackUnavailable` (no decoder), `.output`, `.library`.
    init(entries: [TrackPlan.Entry], source: SourceStream, paths: [String]) throws {
        self.entries = entries
        self.source = source
        decoder = try SubtitleDecoder(source: source)
        let codec = source.codecParameters.pointee.codec_id
        let dialect: ASSText.Dialect = codec == AV_CODEC_ID_ASS || codec == AV_CODEC_ID_SSA ? .script : .decoded
        var files: [PendingFile] = []
        var writers: [CueWriter] = []
        for (entry, path) in zip(entries, paths) {
            let file = try PendingFile(finalPath: path)
            files.append(file)
            writers.append(try CueWriter(format: entry.output == .subtitleSRT ? .srt : .webvtt, dialect: dialect, path: file.temporaryPath))
        }
        self.files = files
        self.writers = writers
    }

    func consume(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        packetsSeen += 1
        let none = cav_nopts_value()
        let time = packet.pointee.pts != none ? packet.pointee.pts : packet.pointee.dts
        guard time != none, packet.pointee.size > 0 else {
            skipped += time == none ? 1 : 0
            return
        }
        let packetStart = source.milliseconds(time)
        let decoded: SubtitleDecoder.Decoded?
        do {
            decoded = try decoder.decode(packet)
        } catch {
            skipped += 1
            return
        }
        let start = packetStart + (decoded?.startOffset ?? 0)
        if let waiting {
            try emit(start: waiting.start, end: max(waiting.start, start), events: waiting.events)
            self.waiting = nil
        }
        guard let decoded, !decoded.events.isEmpty else { return }
        if let end = decoded.endOffset {
            try emit(start: start, end: packetStart + end, events: decoded.events)
        } else {
            waiting = (start, decoded.events)
        }
    }

    func finish(_ end: PassEnd) throws -> [ExtractedTrack] {
        if let waiting {
            try emit(start: waiting.start, end: max(waiting.start, end.endMilliseconds ?? waiting.start), events: waiting.events)
            self.waiting = nil
        }
        for writer in writers { try writer.close() }
        var tracks: [ExtractedTrack] = []
        for (file, writer) in zip(files, writers) {
            let size = try file.commit()
            tracks.append(ExtractedTrack(path: file.finalPath, size: size, units: writer.count,
                                         skippedPackets: skipped, cutShort: end.cutShort))
        }
        return tracks
    }

    private func emit(start: Int64, end: Int64, events: [String]) throws {
        for writer in writers {
            try writer.write(start: start, end: end, events: events)
        }
    }
}
