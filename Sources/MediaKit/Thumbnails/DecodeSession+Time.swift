import CAV

/// Times of the stream (`pts`, in its time base) and of requests (seconds from its first frame).
extension DecodeSession {
    /// One second in the stream's time base.
    var oneSecond: Int64 { max(1, av_rescale_q(1, AVRational(num: 1, den: 1), timeBase)) }

    /// The presentation time `seconds` after the first frame (to the nearest tick; absurd times
    /// are clamped to about ±36,000 years at 1/1,000,000, far past any end).
    func pts(forSeconds seconds: Double) -> Int64 {
        let ticks = (seconds * Double(timeBase.den) / Double(timeBase.num)).rounded()
        let limit = Double(Int64(1) << 60)
        return startPts + Int64(ticks.isNaN ? 0 : min(max(ticks, -limit), limit))
    }

    /// Seconds from the first frame to `pts`, rounded to the microsecond.
    func seconds(forPts pts: Int64) -> Double {
        Prober.microseconds(Double(pts - startPts) * av_q2d(timeBase))
    }
}
