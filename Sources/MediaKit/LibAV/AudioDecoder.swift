import CAV

/// A software decoder for one audio stream: the one owner of an `AVCodecContext`, freed in
/// `deinit`. One thread: audio decoders barely use more, and the analysis runs beside reads.
final class AudioDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens the decoder libavcodec picks for the stream's codec.
    /// The corresponding C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context`
    /// and `avcodec_open2`.
    /// - Throws: `MediaError.damaged` when there is no decoder for the codec, `.library` when it
    ///   does not open.
    init(stream: UnsafeMutablePointer<AVStream>) throws {
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw MediaError.damaged(reason: "no decoder for the audio codec \(name)")
        }
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw MediaError.library(function: "avcodec_alloc_context3", code: cav_averror(ENOMEM), message: "out of memory")
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = allocated
        var opened = false
        defer { if !opened { avcodec_free_context(&owned) } }
        try check(avcodec_parameters_to_context(allocated, parameters), "avcodec_parameters_to_context")
        allocated.pointee.pkt_timebase = stream.pointee.time_base
        allocated.pointee.thread_count = 1
        try check(avcodec_open2(allocated, codec, nil), "avcodec_open2")
        opened = true
        context = allocated
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Drops every frame held inside the decoder, after a seek. The corresponding C function is
    /// `avcodec_flush_buffers`.
    func flush() { avcodec_flush_buffers(context) }
}
