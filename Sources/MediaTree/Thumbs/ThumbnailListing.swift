/// What `thumbs/` lists: a periodic set across the duration and the quarter boundaries, like
/// AVFoundation's periodic and boundary time observers. Listing makes no image.
public enum ThumbnailListing {
    /// Intervals chosen from, in seconds, when the mount sets none.
    static let ladder = [1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600]
    /// The automatic interval keeps the periodic names to at most this many.
    static let maxPeriodic = 40

    /// The names listed for a video lasting `duration` seconds: the periodic ones in time order
    /// (which is also their order by name), then the quarters. `interval`: whole seconds between
    /// periodic names, or nil for automatic.
    public static func names(duration: Double, interval: Int?) -> [String] {
        guard duration > 0, duration.isFinite else { return [] }
        let step = interval ?? automaticInterval(duration: duration)
        var names: [String] = []
        var t = 0
        while Double(t) < duration {
            names.append("at-" + TimeText.sortable(seconds: t, duration: duration) + ".png")
            t += step
        }
        return names + ["at-25%.png", "at-50%.png", "at-75%.png"]
    }

    /// The smallest interval of the ladder that keeps the periodic names within `maxPeriodic`.
    static func automaticInterval(duration: Double) -> Int {
        ladder.first { (duration / Double($0)).rounded(.up) <= Double(maxPeriodic) } ?? ladder.last!
    }
}
