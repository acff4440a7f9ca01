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
        context = try DecoderContext.open(stream, kind: "audio") {
            $0.pointee.thread_count = 1
        }
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Drops every frame held inside the decoder, after a seek. The corresponding C function is
    /// `avcodec_flush_buffers`.
    func flush() { avcodec_flush_buffers(context) }
}
