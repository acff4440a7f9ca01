import CAV
import SystemPackage

/// One output file written by a libavformat muxer with a single stream, either copied from the
/// source (remuxed) or made by an encoder (converted subtitles): the one owner of the output
/// `AVFormatContext` and its I/O context, freed in `deinit`.
///
/// The context is bit-exact (`AVFMT_FLAG_BITEXACT`): the Matroska muxer then writes no random
/// segment or track UIDs, no date and no library version, so the same source gives the same bytes.
/// Matroska outputs carry no CRC-32 elements (`write_crc32=0`).
final class MuxedOutput {
    private let context: UnsafeMutablePointer<AVFormatContext>
    /// Kept alive as long as the context, whose interrupt callback points at it.
    private let deadline: Deadline
    /// The output stream's time base, as the muxer chose it when the header was written.
    private(set) var timeBase: AVRational

    /// Opens `path` for writing with the muxer `muxer` (`matroska`, `ass`, `sup`), adds a stream
    /// with the parameters of `source` (no re-encoding), its title and `language` as its language
    /// tag, and writes the header. Blocking I/O is interrupted once `deadline` has passed.
    /// The corresponding C function is `avcodec_parameters_copy`, and those of the designated init.
    /// - Throws: `MediaError.library` when the muxer refuses the stream or the file cannot be opened.
    convenience init(muxer: String, path: FilePath, source: SourceStream, language: String, deadline: Deadline) throws {
        try self.init(muxer: muxer, path: path, timeBase: source.timeBase, deadline: deadline) { stream, options in
            try check(avcodec_parameters_copy(stream.pointee.codecpar, source.codecParameters), "avcodec_parameters_copy")
            // The source container's tag (e.g. MP4's `mp4a`) means nothing to another muxer.
            stream.pointee.codecpar.pointee.codec_tag = 0
            // The only stream of its file is its default; forced and the other flags are kept.
            stream.pointee.disposition = (source.disposition & ~AV_DISPOSITION_ATTACHED_PIC) | AV_DISPOSITION_DEFAULT
            av_dict_set(&stream.pointee.metadata, "language", language, 0)
            if let title = source.title { av_dict_set(&stream.pointee.metadata, "title", title, 0) }
            // No CRC-32 element per cluster: computing them is a sizeable share of a track pass
            // (every byte of every track), and the cache checks its files with a checksum of its own.
            if muxer == "matroska" { av_dict_set(&options, "write_crc32", "0", 0) }
        }
    }

    /// Opens `path` for writing with the muxer `muxer` (`srt`, `webvtt`), adds a stream with the
    /// codec of `encoder`, and writes the header, as the ffmpeg command does for an encoded
    /// stream. Blocking I/O is interrupted once `deadline` has passed.
    /// - Throws: `MediaError.library` when the muxer refuses the stream or the file cannot be opened.
    convenience init(muxer: String, path: FilePath, encoder: SubtitleEncoder, deadline: Deadline) throws {
        try self.init(muxer: muxer, path: path, timeBase: encoder.timeBase, deadline: deadline) { stream, _ in
            try encoder.copyParameters(to: stream.pointee.codecpar)
        }
    }

    /// Opens the file (by the path's bytes), adds one stream with `timeBase` as a hint, lets
    /// `configure` fill in the stream and the muxer's options, and writes the header.
    /// The corresponding C functions are `avformat_alloc_output_context2`, `avformat_new_stream`,
    /// `avio_open2` and `avformat_write_header`.
    private init(muxer: String, path: FilePath, timeBase: AVRational, deadline: Deadline,
                 configure: (UnsafeMutablePointer<AVStream>, inout OpaquePointer?) throws -> Void) throws {
        var allocated: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(path.withPlatformString { avformat_alloc_output_context2(&allocated, nil, muxer, $0) },
                  "avformat_alloc_output_context2")
        guard let ctx = allocated else {
            throw MediaError.library(function: "avformat_alloc_output_context2", code: cav_averror(ENOMEM), message: "out of memory")
        }
        context = ctx
        self.deadline = deadline
        self.timeBase = timeBase
        // From here on `deinit` frees whatever was made, should a step below throw.
        ctx.pointee.flags |= AVFMT_FLAG_BITEXACT
        ctx.pointee.interrupt_callback = deadline.interruptCallback
        guard let stream = avformat_new_stream(ctx, nil) else {
            throw MediaError.library(function: "avformat_new_stream", code: cav_averror(ENOMEM), message: "out of memory")
        }
        stream.pointee.time_base = timeBase
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        try configure(stream, &options)
        var callback = deadline.interruptCallback
        try check(path.withPlatformString { avio_open2(&ctx.pointee.pb, $0, AVIO_FLAG_WRITE, &callback, nil) }, "avio_open2")
        try check(avformat_write_header(ctx, &options), "avformat_write_header")
        self.timeBase = stream.pointee.time_base
    }

    /// Whether the muxer takes a packet at the same time as the one before (`AVFMT_TS_NONSTRICT`);
    /// otherwise times must strictly increase. Neither kind takes a time that goes back.
    var allowsEqualTimes: Bool {
        (context.pointee.oformat.pointee.flags & AVFMT_TS_NONSTRICT) != 0
    }

    /// Writes one packet of the stream, already in `timeBase`. The muxer does not take the packet.
    /// The corresponding C function is `av_write_frame`.
    /// - Throws: `MediaError.library`.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        try check(av_write_frame(context, packet), "av_write_frame")
    }

    /// Writes the trailer (Matroska: cues, durations) and closes the file.
    /// The corresponding C functions are `av_write_trailer` and `avio_closep`.
    /// - Throws: `MediaError.library`.
    func finish() throws {
        try check(av_write_trailer(context), "av_write_trailer")
        try check(avio_closep(&context.pointee.pb), "avio_closep")
    }

    deinit {
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }
}
