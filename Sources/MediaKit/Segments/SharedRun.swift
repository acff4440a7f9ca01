/// A stretch two films' audio share, as their fingerprints place it (to about a second) or as
/// `BoundaryRefiner` placed its ends (to a few milliseconds).
struct SharedRun: Hashable, Sendable {
    /// Seconds on the first film's clock where the stretch starts and ends.
    var start: Double
    var end: Double
    /// Seconds to add to a time of the first film to reach the same sound in the second.
    var lag: Double
    /// The share of the stretch's fingerprint items that match, 0 to 1.
    var density: Double

    var seconds: Double { end - start }

    /// The same stretch seen from the second film.
    var mirrored: SharedRun { SharedRun(start: start + lag, end: end + lag, lag: -lag, density: density) }

    /// Whether `other` (of the same film) is about the same stretch: they overlap over more than
    /// half of the shorter.
    func agrees(with other: SharedRun) -> Bool {
        let overlap = min(end, other.end) - max(start, other.start)
        return overlap > 0.5 * min(seconds, other.seconds)
    }
}
