import CAV

/// A text subtitle decoder (SubRip, ASS/SSA, mov_text, WebVTT, …): the one owner of its
/// `AVCodecContext`, freed in `deinit`. libavcodec's text decoders all give ASS events.
final class SubtitleDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?

    /// What one packet decodes to.
    struct Decoded {
        /// The ASS event lines of the subtitle's rectangles
        /// (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`).
        var events: [String]
        /// Milliseconds after the packet's time at which it shows and stops showing; the end is
        /// nil when neither the decoder nor the packet gives one.
        var startOffset: Int64
        var endOffset: Int64?
    }

    /// Opens the decoder for `source`'s codec, with its parameters (the ASS header, mov_text's
    /// style box) and its time base. The corresponding C functions are `avcodec_find_decoder`,
    /// `avcodec_parameters_to_context` and `avcodec_open2`.
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

    /// Decodes one packet; nil when it holds no subtitle.
    /// The corresponding C functions are `avcodec_decode_subtitle2` and `avsubtitle_free`.
    /// - Throws: `MediaError.library` when the packet cannot be decoded.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>) throws -> Decoded? {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        try check(avcodec_decode_subtitle2(context, &subtitle, &got, packet), "avcodec_decode_subtitle2")
        guard got != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        var events: [String] = []
        for i in 0..<Int(subtitle.num_rects) {
            if let rect = subtitle.rects?[i], let ass = rect.pointee.ass {
                events.append(String(cString: ass))
            }
        }
        let start = Int64(subtitle.start_display_time)
        let end = subtitle.end_display_time
        // libavcodec fills the end from the packet's duration when the decoder does not say;
        // UInt32.max is the decoders' "until the next one".
        let endOffset: Int64? = end > subtitle.start_display_time && end != UInt32.max ? Int64(end) : nil
        return Decoded(events: events, startOffset: start, endOffset: endOffset)
    }

    deinit {
        avcodec_free_context(&context)
    }
}
