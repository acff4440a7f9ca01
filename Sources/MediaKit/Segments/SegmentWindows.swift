/// Where an episode's audio is fingerprinted, and how long a shared stretch may be: the policy of
/// `MediaService.episodeAudio(of:request:)` and `sharedSegments(of:request:)` in one place.
///
/// As Jellyfin's intro-skipper: the intro is looked for in the first quarter of an episode, at
/// most its first ten minutes, and lasts 15 s to 2 min.
enum SegmentWindows {
    /// The head: the first quarter, at most this long (seconds).
    static let headSeconds = 600.0
    /// The tail: the last quarter, at most this long (seconds). Credits and what may follow them
    /// (a scene after the credits, the next episode's preview) seldom last longer; and a head of
    /// ten minutes and a tail of four cost a 40-minute episode what fpcalc's 600 s costs plus two
    /// fifths, a 20-minute one less than fpcalc (each quarter five minutes, the tail four).
    static let tailSeconds = 240.0
    /// How long an intro lasts (seconds).
    static let intro = 15.0...120.0
    /// How long the credits last at least (seconds); at most the tail.
    static let shortestCredits = 15.0

    /// The head of a film of `duration` seconds: from its first frame.
    static func head(duration: Double) -> ClosedRange<Double> {
        0...max(0, min(duration / 4, headSeconds))
    }

    /// The tail of a film of `duration` seconds: up to its end.
    static func tail(duration: Double) -> ClosedRange<Double> {
        max(0, duration - min(duration / 4, tailSeconds))...max(0, duration)
    }
}
