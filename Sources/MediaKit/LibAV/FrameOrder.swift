/// Frames in the order a decoder gives them out, timed in that order.
///
/// A decoder gives its frames out in presentation order, each with the time of a packet. A file
/// may carry the right times on the wrong packets: DivX's packed B-frames copied by ffmpeg into
/// Matroska put each B-frame's time on the P-frame decoded before it, so the frames come out
/// timed 125, 209, 167 ms. Shown by those times, the picture at 167 ms would be the P-frame
/// after it (`ffmpeg` itself gives two frames 209 ms and none 167). A player shows the frames in
/// the decoder's order, at the times sorted: so does this.
///
/// A frame that comes out later than a packet sent before it whose frame is not out yet is held,
/// with the frames after it, until that frame comes out; the run then takes its packets' times in
/// ascending order. A frame that never comes out (it did not decode) lets the run go with its own
/// times after `maxHeld` frames, and stays in `pending`: a caller whose answer it would be can
/// tell. Frames a decoder may leave out on purpose (sent with `AVDISCARD_NONREF`) are not
/// `sent(_:)`, so no frame waits for them.
struct FrameOrder {
    /// How many frames wait for an earlier time before they go with their own.
    static let maxHeld = 4

    /// The times of the packets sent whole whose frames have not come out.
    var pending: Set<Int64> = []
    /// Frames out of the decoder that wait for an earlier time, in the decoder's order.
    private var held: [Frame] = []
    /// Frames in presentation order, timed, not yet taken (`next()`).
    private var ready: [Frame] = []
    /// The latest packet time among the frames let go.
    private var releasedUpTo: Int64?

    /// No frame is held or waiting to be taken.
    var isEmpty: Bool { held.isEmpty && ready.isEmpty }

    /// Forgets everything: the decoder was emptied (a seek, a flush).
    mutating func reset() {
        pending = []
        held = []
        ready = []
        releasedUpTo = nil
    }

    /// A packet presented at `time` went whole to the decoder: its frame is to come out.
    mutating func sent(_ time: Int64) {
        pending.insert(time)
    }

    /// `frame` came out of the decoder, timed (`Frame.pts`) by the decoder's account.
    mutating func received(_ frame: Frame) {
        pending.remove(Self.packetTime(frame))
        held.append(frame)
        let latest = held.map(Self.packetTime).max() ?? frame.pts
        let after = releasedUpTo ?? .min
        if !pending.contains(where: { $0 > after && $0 < latest }) {
            release(sorting: held.count > 1)
        } else if held.count >= Self.maxHeld {
            release(sorting: false)
        }
    }

    /// The decoder gave out all it had: held frames go with their own times.
    mutating func ended() {
        release(sorting: false)
    }

    /// The next frame in presentation order, if one is ready.
    mutating func next() -> Frame? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    /// Moves the held frames to `ready`, with their packets' times in ascending order when
    /// `sorting` (the times they waited for came out among them), else with their own.
    private mutating func release(sorting: Bool) {
        guard !held.isEmpty else { return }
        let times = held.map(Self.packetTime)
        if sorting {
            for (frame, time) in zip(held, times.sorted()) { frame.pts = time }
        }
        releasedUpTo = max(releasedUpTo ?? .min, times.max() ?? .min)
        ready += held
        held = []
    }

    /// The time of the packet `frame` came from, else the time it was given.
    private static func packetTime(_ frame: Frame) -> Int64 { frame.packetTimestamp ?? frame.pts }
}
