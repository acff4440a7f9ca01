import CAV

/// Where the keyframes of one video stream are: the presentation times of the packets the
/// demuxer flags as keyframes (`AV_PKT_FLAG_KEY`), in the stream's time base, ascending, without
/// repeats. Found once per file version by demuxing, without decoding (`scan(_:)`), and kept
/// (`KeyframeIndexCache`) for every sheet and contact sheet of that version.
struct KeyframeIndex: Sendable {
    /// Presentation times, ascending, each once.
    let times: [Int64]

    init(times: [Int64]) {
        self.times = Array(Set(times)).sorted()
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
