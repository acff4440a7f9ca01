import CAV
import SystemPackage

/// One converted subtitle file, `.srt` or `.vtt`, made as `ffmpeg -i F -map 0:s:N -c:s srt` (or
/// `-c:s webvtt`) makes it: each decoded subtitle goes through libavcodec's encoder of the format
/// and libavformat's muxer of the format, with the ffmpeg command's timing, into a `PendingFile`.
final class SubtitleFile {
    /// The output formats, by the names of their libavcodec encoder and libavformat muxer.
    enum Format {
        case srt, webvtt

        var encoder: String { self == .srt ? "subrip" : "webvtt" }
        var muxer: String { self == .srt ? "srt" : "webvtt" }
    }

    private let file: PendingFile
    private let encoder: SubtitleEncoder
    private let output: MuxedOutput
    private let packet: Packet
    /// The time of the last cue written, in the output's time base.
    private var lastTime: Int64?
    /// Cues written so far (the ffmpeg command writes one per subtitle, even when no text is left).
    private(set) var cues = 0

    /// Where the file goes once complete.
    var finalPath: FilePath { file.finalPath }

    /// Creates the temporary file for `finalPath`, opens the encoder and writes the muxer's header.
    /// - Throws: `MediaError.output`, `.trackUnavailable` (no encoder), `.library`.
    init(format: Format, decoder: SubtitleDecoder, source: SourceStream, finalPath: FilePath, deadline: Deadline) throws {
        file = try PendingFile(finalPath: finalPath)
        encoder = try SubtitleEncoder(name: format.encoder, decoder: decoder, source: source)
        output = try MuxedOutput(muxer: format.muxer, path: file.temporaryPath, encoder: encoder, deadline: deadline)
        packet = try Packet()
    }

    /// Writes one cue. `subtitle` must have a time and its start moved into it
    /// (`Subtitle.moveStartIntoTime`).
    ///
    /// As the ffmpeg command does: the cue starts at the subtitle's time and lasts its
    /// `end_display_time` milliseconds, both rescaled to the muxer's time base (milliseconds for
    /// both formats); a cue that would start before the one written last starts with it instead
    /// (as its muxing step does for any stream whose times go back).
    /// - Throws: `MediaError.library` (encoding or writing failed).
    func write(_ subtitle: Subtitle) throws {
        guard let time = subtitle.pts else { return }
        let size = try encoder.encode(subtitle)
        var start = av_rescale_q(time, cav_time_base_q(), output.timeBase)
        if let lastTime {
            start = max(start, output.allowsEqualTimes ? lastTime : lastTime + 1)
        }
        let p = packet.pointer
        p.pointee.data = encoder.buffer
        p.pointee.size = Int32(size)
        p.pointee.pts = start
        p.pointee.dts = start
        p.pointee.duration = av_rescale_q(Int64(subtitle.value.end_display_time), AVRational(num: 1, den: 1000), output.timeBase)
        p.pointee.stream_index = 0
        defer { packet.unref() }
        try output.write(p)
        lastTime = start
        cues += 1
    }

    /// Writes the trailer, closes the file and renames it to its final name; its size in bytes.
    /// - Throws: `MediaError.library`, `.output`.
    func finish() throws -> Int64 {
        try output.finish()
        return try file.commit()
    }
}
