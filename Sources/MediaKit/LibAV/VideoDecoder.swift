import CAV
import Glibc

/// A software decoder for one video stream: the one owner of an `AVCodecContext`, freed in
/// `deinit`. No hardware acceleration.
final class VideoDecoder {
    /// How the decoder spreads its work over threads; fixed when it is opened.
    enum Threading {
        /// Threads work on successive frames: the fastest way through a run of frames (from a
        /// keyframe to a frame-accurate time), but each output waits for a frame per thread.
        case frames
        /// Threads work on slices of one frame: no extra delay, best for a lone keyframe.
        case slices
    }

    let context: UnsafeMutablePointer<AVCodecContext>

    /// Threads per decoder: one per processor, at most 4 (a kept session holds its threads).
    static let maxThreads = min(4, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// Opens the decoder libavcodec picks for the stream's codec, with up to `maxThreads`
    /// threads (one per processor; each frame thread holds its own decoder state and frames).
    /// The corresponding C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context`
    /// and `avcodec_open2`.
    /// - Throws: `MediaError.damaged` when there is no decoder for the codec, `.library` when it
    ///   does not open.
    init(stream: UnsafeMutablePointer<AVStream>, threading: Threading, threads: Int = VideoDecoder.maxThreads) throws {
        context = try DecoderContext.open(stream, kind: "video") {
            $0.pointee.thread_type = threading == .frames ? FF_THREAD_FRAME : FF_THREAD_SLICE
            $0.pointee.thread_count = Int32(max(1, threads))
        }
        self.threading = threading
    }

    /// How the threads share the work.
    let threading: Threading

    /// Threads decoding (libavcodec's `thread_count` after opening: 1 where the codec has none).
    var threads: Int { max(1, Int(context.pointee.thread_count)) }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Decode only keyframes (`AVDISCARD_NONKEY`) or every frame (`AVDISCARD_DEFAULT`).
    var keyframesOnly: Bool {
        get { context.pointee.skip_frame == AVDISCARD_NONKEY }
        set { context.pointee.skip_frame = newValue ? AVDISCARD_NONKEY : AVDISCARD_DEFAULT }
    }

    /// Drops every frame held inside the decoder, after a seek. The corresponding C function is
    /// `avcodec_flush_buffers`.
    func flush() { avcodec_flush_buffers(context) }
}
