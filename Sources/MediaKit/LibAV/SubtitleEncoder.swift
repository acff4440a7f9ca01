import CAV

/// A text subtitle encoder, `subrip` or `webvtt`, set up as the ffmpeg command sets it up for
/// `-c:s srt` / `-c:s webvtt`: the one owner of its `AVCodecContext` and of the buffer it encodes
/// into, both freed in `deinit`.
///
/// It turns the ASS events of a decoded `Subtitle` into the cue text of its format (libavcodec
/// maps the override tags it knows to `<i>`, `<b>`, `<u>`, `<font>`…, `\N` to a line break, and
/// keeps other text as it is); the muxer adds the numbers and times.
final class SubtitleEncoder {
    /// The ffmpeg command's `subtitle_out_max_size`: a cue whose text takes more fails to encode.
    /// Reserved with `av_malloc`, so only the pages a cue's text reaches are ever touched.
    static let bufferSize = 1024 * 1024

    private var context: UnsafeMutablePointer<AVCodecContext>? = nil
    /// Where `encode` leaves the cue text: `bufferSize` bytes, valid as long as the encoder.
    private(set) var buffer: UnsafeMutablePointer<UInt8>? = nil

    /// Opens the encoder `name` (`subrip`, `webvtt`) with the decoder's ASS header (the encoders
    /// read the styles from it), microseconds as time base and the source's frame size, as the
    /// ffmpeg command does. Bit-exact, although neither encoder writes anything that varies.
    /// The corresponding C functions are `avcodec_find_encoder_by_name` and `avcodec_open2`.
    /// - Throws: `MediaError.trackUnavailable` when libavcodec has no such encoder, `.library`
    ///   when it fails to open or memory runs out.
    init(name: String, decoder: SubtitleDecoder, source: SourceStream) throws {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw MediaError.trackUnavailable(stream: source.index, reason: "no \(name) encoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw Self.outOfMemory("avcodec_alloc_context3")
        }
        context = ctx
        // From here on `deinit` frees what was made, should a step below throw.
        ctx.pointee.time_base = cav_time_base_q()
        ctx.pointee.width = source.codecParameters.pointee.width
        ctx.pointee.height = source.codecParameters.pointee.height
        ctx.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
        let header = decoder.subtitleHeader
        if !header.isEmpty {
            // NUL-terminated, as libavcodec's ASS parser expects; `avcodec_free_context` frees it.
            guard let copy = av_mallocz(header.count + 1)?.assumingMemoryBound(to: UInt8.self) else {
                throw Self.outOfMemory("av_mallocz")
            }
            copy.update(from: header, count: header.count)
            ctx.pointee.subtitle_header = copy
            ctx.pointee.subtitle_header_size = Int32(header.count)
        }
        try check(avcodec_open2(ctx, codec, nil), "avcodec_open2")
        guard let memory = av_malloc(Self.bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
            throw Self.outOfMemory("av_malloc")
        }
        buffer = memory
    }

    /// Encodes `subtitle` (its start already moved into its time) into `buffer`; the number of
    /// bytes, 0 when no text is left (the ffmpeg command still writes that cue, empty).
    /// The corresponding C function is `avcodec_encode_subtitle`.
    /// - Throws: `MediaError.library` (not ASS events, or more text than `bufferSize`).
    func encode(_ subtitle: Subtitle) throws -> Int {
        let size = try check(avcodec_encode_subtitle(context, buffer, Int32(Self.bufferSize), &subtitle.value),
                             "avcodec_encode_subtitle")
        return Int(size)
    }

    /// Gives a muxer's stream the encoder's codec, time base and frame size.
    /// The corresponding C function is `avcodec_parameters_from_context`.
    /// - Throws: `MediaError.library`.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws {
        try check(avcodec_parameters_from_context(parameters, context), "avcodec_parameters_from_context")
    }

    /// The encoder's time base (microseconds).
    var timeBase: AVRational { context?.pointee.time_base ?? cav_time_base_q() }

    private static func outOfMemory(_ function: String) -> MediaError {
        .library(function: function, code: cav_averror(ENOMEM), message: "out of memory")
    }

    deinit {
        avcodec_free_context(&context)
        av_free(buffer)
    }
}
