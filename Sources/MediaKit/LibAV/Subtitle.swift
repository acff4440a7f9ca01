import CAV

/// One decoded subtitle: the one owner of an `AVSubtitle` and its rectangles (for the text
/// decoders, ASS event lines), freed in `deinit`. Made by `SubtitleDecoder`, read by
/// `SubtitleEncoder`. The corresponding C function is `avsubtitle_free`.
final class Subtitle {
    /// Filled by `avcodec_decode_subtitle2`; owned from then on.
    var value = AVSubtitle()

    /// When it shows, in microseconds (`AV_TIME_BASE`), from the packet's time as the decoder got
    /// it; nil when that packet had none.
    var pts: Int64? {
        value.pts == cav_nopts_value() ? nil : value.pts
    }

    /// Whether it holds nothing to show (the ffmpeg command encodes only subtitles that hold something).
    var isEmpty: Bool { value.num_rects == 0 }

    /// Folds the start offset into `pts`, as the ffmpeg command does before encoding (encoders
    /// require `start_display_time` to be 0): `pts` moves by `start_display_time` milliseconds
    /// and `end_display_time` (milliseconds after the start) loses as much, with the unsigned
    /// arithmetic of the C field. Doing it twice changes nothing.
    func moveStartIntoTime() {
        let start = value.start_display_time
        guard start != 0 else { return }
        if value.pts != cav_nopts_value() {
            value.pts += av_rescale_q(Int64(start), AVRational(num: 1, den: 1000), cav_time_base_q())
        }
        value.end_display_time &-= start
        value.start_display_time = 0
    }

    deinit {
        avsubtitle_free(&value)
    }
}
