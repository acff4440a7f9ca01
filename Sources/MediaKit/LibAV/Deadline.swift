import CAV
import Glibc
import Synchronization

/// A point on the monotonic clock after which libav* I/O is interrupted.
///
/// Held by every context whose `AVIOInterruptCB.opaque` points at it (an `InputFile`, each
/// `MuxedOutput`), so it lives as long as the contexts that read it. A file kept open across
/// requests (a decode session) moves its deadline with `restart(seconds:)` at each request.
final class Deadline: Sendable {
    /// Nanoseconds on CLOCK_MONOTONIC; `UInt64.max` means no bound.
    private let limit: Atomic<UInt64>
    /// The length of the current bound, for error messages.
    private let length: Atomic<UInt64>

    init(seconds: Double) {
        limit = Atomic(Deadline.limit(after: seconds))
        length = Atomic(seconds.bitPattern)
    }

    /// Seconds the current bound allows, counted from its (re)start.
    var seconds: Double { Double(bitPattern: length.load(ordering: .relaxed)) }

    var hasPassed: Bool { Deadline.now() > limit.load(ordering: .relaxed) }

    /// Seconds left before the bound passes (0 once it has; infinity without a bound).
    var remaining: Double {
        let end = limit.load(ordering: .relaxed)
        if end == .max { return .infinity }
        let now = Deadline.now()
        return end > now ? Double(end - now) / 1e9 : 0
    }

    /// Starts a new bound of `seconds` from now.
    func restart(seconds: Double) {
        length.store(seconds.bitPattern, ordering: .relaxed)
        limit.store(Deadline.limit(after: seconds), ordering: .relaxed)
    }

    /// Throws `MediaError.timedOut` if the bound has passed.
    func check() throws {
        if hasPassed { throw MediaError.timedOut(seconds: seconds) }
    }

    private static func limit(after seconds: Double) -> UInt64 {
        seconds.isFinite && seconds >= 0 ? now() &+ UInt64(seconds * 1e9) : .max
    }

    /// libav*'s interrupt callback bound to this deadline. The pointer inside is not retained:
    /// whoever installs it in a context must keep this `Deadline` alive as long as that context.
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(callback: deadlineInterruptCallback, opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// The C callback libav* polls during blocking I/O: non-zero aborts the call.
let deadlineInterruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<Deadline>.fromOpaque(opaque).takeUnretainedValue().hasPassed ? 1 : 0
}
