import CAV

/// A text subtitle decoder (SubRip, ASS/SSA, mov_text, WebVTT, …): the one owner of its
/// `AVCodecContext`, freed in `deinit`. libavcodec's text decoders all give ASS events, and an
/// ASS script header (`subtitle_header`) that the encoders read the styles from.
final class SubtitleDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?

    /// Opens the decoder for `source`'s codec, with its parameters (the ASS header, mov_text's
    /// style box) and its time base, as the ffmpeg command opens it.
    /// The corresponding C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context`
    /// and `avcodec_open2`.
    /// - Throws: `MediaError.trackUnavailable` when libavcodec has no decoder, `.library` when it fails to open.
    init(source: SourceStream) throws {
        let parameters = source.codecParameters
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError.trackUnavailable(stream: source.index, reason: "no decoder for \(String(cString: avcodec_get_name(parameters.pointee.codec_id)))")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw MediaError.library(function: "avcodec_alloc_context3", code: cav_averror(ENOMEM), message: "out of memory")
        }
        context = ctx
        // From here on `deinit` frees the context, should a step below throw.
        try check(avcodec_parameters_to_context(ctx, parameters), "avcodec_parameters_to_context")
        ctx.pointee.pkt_timebase = source.timeBase
        try check(avcodec_open2(ctx, codec, nil), "avcodec_open2")
    }

    /// Decodes one packet, whose times must already be shifted as the output wants them (the
    /// subtitle's `pts` is the packet's, in microseconds); nil when it gives no subtitle.
    /// The corresponding C function is `avcodec_decode_subtitle2`.
    /// - Throws: `MediaError.library` when the packet cannot be decoded.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>) throws -> Subtitle? {
        let subtitle = Subtitle()
        var got: Int32 = 0
        try check(avcodec_decode_subtitle2(context, &subtitle.value, &got, packet), "avcodec_decode_subtitle2")
        return got != 0 ? subtitle : nil
    }

    /// Decodes one packet as the source stream has it, its times shifted by `offset` (the file's
    /// start, `SourceStream.offset`) for the decoder, as the ffmpeg command shifts them, and put
    /// back after: the stream's other sinks read the packet next. A packet that cannot be decoded
    /// is left out, as the ffmpeg command leaves it out, and counted in `skipped`.
    /// - Returns: the subtitle; nil when the packet gives none or cannot be decoded.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>, shiftedBy offset: Int64, skipped: inout Int) -> Subtitle? {
        let saved = (packet.pointee.pts, packet.pointee.dts)
        defer { (packet.pointee.pts, packet.pointee.dts) = saved }
        let none = cav_nopts_value()
        if packet.pointee.pts != none { packet.pointee.pts -= offset }
        if packet.pointee.dts != none { packet.pointee.dts -= offset }
        do {
            return try decode(packet)
        } catch {
            skipped += 1
            return nil
        }
    }

    /// Asks the decoder for what it still holds at the end of the stream, with an empty packet as
    /// the ffmpeg command does (only decoders with a delay give anything); nil when nothing.
    /// - Throws: `MediaError.library`.
    func flush() throws -> Subtitle? {
        let empty = try Packet()
        return try decode(empty.pointer)
    }

    /// The ASS script header the decoder made (`[Script Info]`, styles); empty when it made none.
    var subtitleHeader: [UInt8] {
        guard let ctx = context, let header = ctx.pointee.subtitle_header, ctx.pointee.subtitle_header_size > 0 else {
            return []
        }
        return Array(UnsafeBufferPointer(start: header, count: Int(ctx.pointee.subtitle_header_size)))
    }

    deinit {
        avcodec_free_context(&context)
    }
}
