import CAV
import Glibc

/// A point on the monotonic clock after which libav* I/O is interrupted.
///
/// Held by every context whose `AVIOInterruptCB.opaque` points at it (the `InputFile`, each
/// `MuxedOutput`), so it lives as long as the contexts that read it.
final class Deadline: @unchecked Sendable {
    /// Nanoseconds on CLOCK_MONOTONIC; `UInt64.max` means no bound.
    let limit: UInt64
    let seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
        self.limit = seconds.isFinite ? Deadline.now() &+ UInt64(seconds * 1e9) : .max
    }

    var hasPassed: Bool { Deadline.now() > limit }

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
