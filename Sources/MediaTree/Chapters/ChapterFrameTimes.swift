/// When a chapter with no picture of its own is shown by a frame of the film: a little after the
/// chapter's start (past a cut or the first frames of a fade), then a few later times in case
/// that frame is almost black.
public enum ChapterFrameTimes {
    /// A picture whose mean luma (0–255) is below this is almost black: a fade-in, not a picture.
    public static let darkLuma = 16.0
    /// How far into the chapter the first frame is taken: 1 s, or a tenth of a shorter chapter.
    static let firstOffset = 1.0
    static let firstShare = 0.1
    /// Later tries are spread over this much of the chapter's start (or the whole of a shorter one).
    static let window = 5.0
    static let retries = 3

    /// The times to try, in order, in seconds from the video's first frame: `start` + min(1 s,
    /// 10% of the chapter), then `start` + k/3 of min(5 s, the chapter's length) for k = 1…3
    /// where later than the first. Every time is clamped inside the chapter (before its end,
    /// unless it has no length) and inside the video (0…`duration`); rounded to the microsecond,
    /// strictly increasing.
    public static func times(start: Double, end: Double, duration: Double) -> [Double] {
        let start = start.isFinite ? max(0, start) : 0
        let length = end.isFinite ? max(0, end - start) : 0
        // The last time inside the chapter: a millisecond before its end (the frame shown at its
        // end belongs to the next chapter), the start itself for a chapter with no length.
        let last = length > 0.002 ? end - 0.001 : start
        func clamped(_ t: Double) -> Double {
            let inside = min(max(t, start), last)
            return microseconds(min(max(inside, 0), max(0, duration)))
        }
        var times = [clamped(start + min(firstOffset, firstShare * length))]
        let span = min(window, length)
        for k in 1...retries {
            let t = clamped(start + span * Double(k) / Double(retries))
            if t > times.last! { times.append(t) }
        }
        return times
    }

    static func microseconds(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }
}
