import MediaKit

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
    public static func names(duration: Double, interval: Int?, format: ImageFormat = .png) -> [String] {
        times(duration: duration, interval: interval).map { $0.stem + "." + format.fileExtension }
    }

    /// What `names` lists, before the extension: each name's stem and the time it means.
    static func times(duration: Double, interval: Int?) -> [(stem: String, time: NameTime.Value)] {
        guard duration > 0, duration.isFinite else { return [] }
        let step = interval ?? automaticInterval(duration: duration)
        var listed: [(stem: String, time: NameTime.Value)] = []
        var t = 0
        while Double(t) < duration {
            listed.append(("at-" + NameTime.sortable(seconds: t, duration: duration), .seconds(Double(t))))
            t += step
        }
        return listed + [25.0, 50, 75].map { ("at-\(Int($0))%", .percent($0)) }
    }

    /// What the listed names depend on: videos of other durations with the same interval, number
    /// of periodic names and width of the hours list the same names (`names(of:)`).
    struct Shape: Hashable, Sendable {
        let duration: Double
        let interval: Int?
        let format: ImageFormat

        /// The interval, the number of periodic names (counted as `times` counts them) and the
        /// digits of the hours; empty for a duration that lists none.
        private let key: [Int]

        init(duration: Double, interval: Int?, format: ImageFormat) {
            self.duration = duration
            self.interval = interval
            self.format = format
            guard duration > 0, duration.isFinite else {
                key = []
                return
            }
            let step = interval ?? ThumbnailListing.automaticInterval(duration: duration)
            var count = 0
            while Double(count * step) < duration { count += 1 }
            key = [step, count, duration >= 3600 ? String(Int(duration) / 3600).count : 0]
        }

        static func == (a: Shape, b: Shape) -> Bool { a.format == b.format && a.key == b.key }
        func hash(into hasher: inout Hasher) {
            hasher.combine(format)
            hasher.combine(key)
        }
    }

    /// The names `names(duration:interval:format:)` gives, as names.
    static func names(of shape: Shape) -> [Name] {
        times(duration: shape.duration, interval: shape.interval).map { Name($0.stem + "." + shape.format.fileExtension) }
    }

    /// The smallest interval of the ladder that keeps the periodic names within `maxPeriodic`.
    static func automaticInterval(duration: Double) -> Int {
        ladder.first { (duration / Double($0)).rounded(.up) <= Double(maxPeriodic) } ?? ladder.last!
    }
}
