import CAV

/// Where the keyframes of one video stream are: the presentation and decode times of the packets
/// the demuxer flags as keyframes (`AV_PKT_FLAG_KEY`), in the stream's time base, in presentation
/// order, without repeats. Found once per file version by demuxing, without decoding
/// (`scan(_:)`), and kept (`KeyframeIndexCache`) for every sheet and contact sheet of that version.
struct KeyframeIndex: Sendable {
    /// Presentation times, ascending, each once.
    let times: [Int64]
    /// The decode time of the keyframe presented at `times[i]`: where a seek to that keyframe
    /// aims (`DecodeSession.keyframe(at:in:)`). Earlier than its presentation time where frames
    /// are reordered (B-frames).
    let decodeTimes: [Int64]

    /// Keyframes whose decode times are their presentation times.
    init(times: [Int64]) {
        self.init(keyframes: times.map { ($0, $0) })
    }

    /// Keyframes as (presentation time, decode time); of two with one presentation time, the
    /// first listed is kept.
    init(keyframes: [(time: Int64, decodeTime: Int64)]) {
        var seen = Set<Int64>()
        let sorted = keyframes.filter { seen.insert($0.time).inserted }.sorted { $0.time < $1.time }
        times = sorted.map(\.time)
        decodeTimes = sorted.map(\.decodeTime)
    }

    /// The keyframe nearest `target`: the one whose time is closest to it; of two equally close
    /// (one before, one after), the earlier. Nil for an empty index.
    func nearest(to target: Int64) -> Int64? {
        guard !times.isEmpty else { return nil }
        let after = firstIndex(atOrAfter: target)
        if after == times.count { return times[after - 1] }
        if after == 0 || times[after] == target { return times[after] }
        let before = times[after - 1]
        return times[after] - target < target - before ? times[after] : before
    }

    /// The keyframe after the one at `time` (or after `time`, if none is there); nil past the last.
    func next(after time: Int64) -> Int64? {
        let i = firstIndex(atOrAfter: time &+ 1)
        return i < times.count ? times[i] : nil
    }

    /// The keyframe before the one at `time` (or before `time`, if none is there); nil for the first.
    func previous(before time: Int64) -> Int64? {
        let i = firstIndex(atOrAfter: time)
        return i > 0 ? times[i - 1] : nil
    }

    /// The decode time of the keyframe presented at `time`; nil if none is.
    func decodeTime(of time: Int64) -> Int64? {
        let i = firstIndex(atOrAfter: time)
        return i < times.count && times[i] == time ? decodeTimes[i] : nil
    }

    /// The keyframe of the index a keyframe packet read is, by its presentation time where it
    /// has one (the nearest listed), else by its decode time (the keyframe whose decode time is
    /// nearest). After a seek a demuxer may work a packet's times out otherwise than in the scan
    /// (an MPEG program stream's packets carry times only where a frame starts a container
    /// packet; the others' are guessed from the ones before), by less than half the gap between
    /// keyframes. Nil for an empty index, or a packet without times.
    func keyframe(presentedAt pts: Int64?, decodedAt dts: Int64?) -> Int64? {
        if let pts { return nearest(to: pts) }
        guard let dts, !decodeTimes.isEmpty else { return nil }
        var low = 0, high = decodeTimes.count
        while low < high {
            let middle = (low + high) / 2
            if decodeTimes[middle] < dts { low = middle + 1 } else { high = middle }
        }
        if low == decodeTimes.count { return times[low - 1] }
        if low == 0 { return times[0] }
        return decodeTimes[low] - dts < dts - decodeTimes[low - 1] ? times[low] : times[low - 1]
    }

    /// The index of the first time at or after `target` (`times.count` if none is).
    private func firstIndex(atOrAfter target: Int64) -> Int {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
