import Glibc
import Synchronization

/// The requests being served now, which the background analysis yields to: it waits between its
/// units of work until none has been served for a moment (`waitForQuiet`).
public final class RequestActivity: Sendable {
    private let inFlight = Atomic<Int>(0)
    /// When the last request ended, in nanoseconds of the monotonic clock.
    private let lastEnd = Atomic<UInt64>(0)

    /// How long the mount must have served nothing before background work goes on.
    static let quiet = 0.1

    init() {}

    /// A request (or a read) starts.
    public func begin() { inFlight.add(1, ordering: .relaxed) }

    /// It has been answered.
    public func end() {
        lastEnd.store(Self.now(), ordering: .relaxed)
        // Never below none: a reply given twice (a bug, which FuseBridge logs) must not make the
        // mount look idle while it serves.
        var count = inFlight.load(ordering: .relaxed)
        while count > 0 {
            let (exchanged, found) = inFlight.compareExchange(expected: count, desired: count - 1, ordering: .relaxed)
            if exchanged { return }
            count = found
        }
    }

    /// Whether a request is being served or ended less than `quiet` seconds ago.
    var isBusy: Bool {
        inFlight.load(ordering: .relaxed) > 0 || Self.now() &- lastEnd.load(ordering: .relaxed) < UInt64(Self.quiet * 1e9)
    }

    /// Returns once the mount is quiet, or `unless` says not to wait; throws `stop`'s error as
    /// soon as it gives one.
    func waitForQuiet(unless: () -> Bool = { false }, stop: () throws -> Void) rethrows {
        try stop()
        while isBusy && !unless() {
            usleep(20_000)
            try stop()
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
