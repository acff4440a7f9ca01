/// Where to seek again when a seek landed after the time wanted. Demuxers land where their index
/// or search says, which is not always a keyframe at or before the time (MP4 indexes decode
/// times; an MPEG program stream is searched by packet times and lands after the keyframe it
/// wanted, or past the last one near the end). Each try seeks earlier than the last and than
/// where it landed: 1 s, then 4 s, then 16 s; four seeks in all, none after one that went before
/// the stream's start (earlier holds nothing more).
struct EarlierLanding {
    /// Where the seek being tried goes.
    private(set) var seekTo: Int64
    private var step: Int64
    private var seeks = 1
    private let start: Int64

    /// The first seek goes to `first`; `start` is the stream's start, `oneSecond` a second in the
    /// stream's time base.
    init(first: Int64, start: Int64, oneSecond: Int64) {
        seekTo = first
        step = oneSecond
        self.start = start
    }

    /// After the seek to `seekTo` landed too late, at `landed` (the first frame read there; nil
    /// where none was): where to seek next, or nil when the tries are spent.
    mutating func next(landed: Int64?) -> Int64? {
        guard seeks < 4, seekTo >= start else { return nil }
        seekTo = min(seekTo, landed ?? seekTo) - step
        step *= 4
        seeks += 1
        return seekTo
    }
}

extension DecodeSession {
    /// The seeks that reach a frame at or before `target`, starting at `target` (not before the
    /// stream's start).
    func earlierLanding(before target: Int64) -> EarlierLanding {
        EarlierLanding(first: max(target, startPts), start: startPts, oneSecond: oneSecond)
    }
}
