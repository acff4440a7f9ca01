import CAV
import Glibc

/// Opening a decoder, which `VideoDecoder` and `AudioDecoder` share: the decoder libavcodec picks
/// for the stream's codec, its context made from the stream's parameters and opened. The corresponding
/// C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context` and `avcodec_open2`.
enum DecoderContext {
    /// An opened context for `stream`, `configure` having set what the caller chooses (threads)
    /// before it is opened. The caller owns it and frees it (`avcodec_free_context`).
    /// - Throws: `MediaError.damaged` when there is no decoder for the codec (`kind`, for the
    ///   message: "audio", "video"), `.library` when it does not open.
    static func open(_ stream: UnsafeMutablePointer<AVStream>, kind: String,
                     configure: (UnsafeMutablePointer<AVCodecContext>) -> Void) throws -> UnsafeMutablePointer<AVCodecContext> {
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw MediaError.damaged(reason: "no decoder for the \(kind) codec \(name)")
        }
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw MediaError.library(function: "avcodec_alloc_context3", code: cav_averror(ENOMEM), message: "out of memory")
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = allocated
        var opened = false
        defer { if !opened { avcodec_free_context(&owned) } }
        try check(avcodec_parameters_to_context(allocated, parameters), "avcodec_parameters_to_context")
        allocated.pointee.pkt_timebase = stream.pointee.time_base
        configure(allocated)
        try check(avcodec_open2(allocated, codec, nil), "avcodec_open2")
        opened = true
        return allocated
    }
}
