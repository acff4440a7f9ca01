import CAV

/// What a decode session's decoder holds in memory, estimated from the stream's picture size and
/// format and the decoder's references, reordering and threads. libavcodec does not report it.
///
/// A decoder's memory is its frames: those it keeps as references (`refs`), those it holds back
/// for reordering (`has_b_frames`), one being decoded per frame thread, and those the session
/// keeps (the frame shown and the next, one being scaled). libavcodec's frame pools hand a freed
/// frame to the next picture and give nothing back before the decoder closes, so the most frames
/// alive at once are what stays. Each H.264 picture also carries motion vectors and macroblock
/// tables, about a third of a 4:2:0 frame.
enum DecodeMemory {
    /// The estimate in bytes for a decoder of `stream` with `threads` threads working as
    /// `threading` says; `decoder`, once open, gives its references and reordering delay (the
    /// stream's parameters give the delay alone; H.264 takes its references from the SPS at open).
    static func estimate(stream: UnsafeMutablePointer<AVStream>, decoder: UnsafeMutablePointer<AVCodecContext>?,
                         threads: Int, threading: VideoDecoder.Threading) -> Int {
        let parameters = stream.pointee.codecpar.pointee
        let held = frames(references: decoder.map { Int($0.pointee.refs) } ?? 0,
                          delay: max(Int(parameters.video_delay), decoder.map { Int($0.pointee.has_b_frames) } ?? 0),
                          threads: threads, threading: threading)
        return held * frameBytes(width: Int(parameters.width), height: Int(parameters.height),
                                 format: AVPixelFormat(rawValue: parameters.format))
    }

    /// Frames alive at once: references (at least 1; 4, the most a 1080p H.264 stream at level 4
    /// may keep, when unknown), the reordering delay, the frames in flight, and 3 of the
    /// session's. In flight: one, or with frame threads two per thread (each thread's context
    /// has its own frame pool and tables, so a session with two frame threads keeps markedly more
    /// than one with one thread).
    static func frames(references: Int, delay: Int, threads: Int, threading: VideoDecoder.Threading) -> Int {
        let references = references > 0 ? min(references, 16) : 4
        let inFlight = threading == .frames && threads > 1 ? 2 * threads : 1
        return references + max(0, delay) + inFlight + 3
    }

    /// One frame as libavcodec's default allocator makes it (planes of `format` over the size
    /// rounded up to 64, with a row of padding) and a third more for the codec's per-picture
    /// tables. An unknown format counts 4 bytes a pixel.
    static func frameBytes(width: Int, height: Int, format: AVPixelFormat) -> Int {
        let w = (max(1, width) + 63) / 64 * 64, h = (max(1, height) + 63) / 64 * 64 + 16
        let planes = Int(av_image_get_buffer_size(format, Int32(w), Int32(h), 64))
        let bytes = planes > 0 ? planes : 4 * w * h
        return bytes + bytes / 3
    }
}
