import CAV

/// A decoded picture: the one owner of an `AVFrame` (and, through it, references to the
/// decoder's buffers), freed in `deinit`. The corresponding C functions are `av_frame_alloc`
/// and `av_frame_free`.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>
    /// The presentation time in the stream's time base: `best_effort_timestamp`, or a time
    /// worked out by the reader when the decoder gives none.
    var pts: Int64 = 0

    init() throws {
        guard let frame = av_frame_alloc() else {
            throw MediaError.library(function: "av_frame_alloc", code: cav_averror(ENOMEM), message: "out of memory")
        }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    var isKeyframe: Bool { pointer.pointee.key_frame != 0 }

    /// Whether the decoder made up part of the picture: errors in its data concealed, a reference
    /// it needed missing, slices that did not decode (`decode_error_flags`), or the frame marked
    /// corrupt. Such a picture is not the frame the file holds (the frame at the end of a file
    /// cut inside it shows the one before it, say), whatever its time.
    var isConcealed: Bool {
        let f = pointer.pointee
        return f.decode_error_flags != 0 || f.flags & AV_FRAME_FLAG_CORRUPT != 0
    }

    /// The time the decoder gives, or nil: `best_effort_timestamp`, else `pts`.
    var decoderTimestamp: Int64? {
        let f = pointer.pointee
        if f.best_effort_timestamp != cav_nopts_value() { return f.best_effort_timestamp }
        if f.pts != cav_nopts_value() { return f.pts }
        return nil
    }

    /// The time of the packet the frame came from, where it had one, else `decoderTimestamp`:
    /// for a stream whose packets all carry one (the scene analysis asks the demuxer to work them
    /// out), each frame keeps its own, where `best_effort_timestamp` would give two frames of a
    /// stream whose times go back the same time.
    var packetTimestamp: Int64? {
        let f = pointer.pointee
        return f.pts != cav_nopts_value() ? f.pts : decoderTimestamp
    }

    /// How long the frame is shown, in the stream's time base, where the packet said (else nil).
    var duration: Int64? {
        let d = pointer.pointee.pkt_duration
        return d > 0 ? d : nil
    }
}
