import Foundation
import Glibc
import Synchronization

/// Works on the entries of a source folder's listing several at once: each entry's stat and, for
/// a media file not probed yet, its probe.
///
/// As many run at once as there are processors (a probe is mostly libavformat's work, and its
/// decoders' frames are its memory). But a probe waiting on a slow disk (a network share, a disk
/// spinning up) uses neither: a call running for longer than `stallAfter` stops counting, and
/// another starts beside it, so one slow file does not hold the others back. The calls run on
/// threads of a pool of their own (`helpers`); the caller's thread waits for them all.
enum EntryFanOut {
    /// Calls at once, stalled ones not counted: one per processor, at least two.
    static let width = max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Seconds after which a call counts as stalled.
    static let stallAfter = 0.25
    /// The threads the calls run on, shared by every listing of the process; they live as long
    /// as it does. More than `width`, so that calls stalled in one listing leave threads for
    /// others; few enough that files which never answer (a share gone away) cannot pile up threads.
    static let helpers = WorkerPool(name: "mediafs-listing", threads: max(16, 4 * width))

    private struct State {
        var next = 0
        var finished = 0
        /// Helpers started and not yet returned.
        var workers = 0
        /// When each running call started (monotonic nanoseconds), by entry.
        var running: [Int: UInt64] = [:]
    }

    /// Calls `body` with every index in `0..<count`, at most `width` at once not counting calls
    /// stalled for `stallAfter` seconds, and returns when every call has returned.
    static func forEach(_ count: Int, width: Int = EntryFanOut.width, stallAfter: Double = EntryFanOut.stallAfter,
                        _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        let state = Mutex(State())
        let changed = NSCondition()
        let stallNanoseconds = UInt64(stallAfter * 1e9)

        @Sendable func work() {
            ChurningThreads.prepareThisThread()
            while true {
                let claimed = state.withLock { s -> Int? in
                    guard s.next < count else {
                        s.workers -= 1
                        return nil
                    }
                    defer { s.next += 1 }
                    s.running[s.next] = now()
                    return s.next
                }
                guard let i = claimed else { return }
                body(i)
                let isLast = state.withLock { s -> Bool in
                    s.running[i] = nil
                    s.finished += 1
                    return s.finished == count
                }
                // Only the last call wakes the caller (stalls it sees by waiting at most
                // `stallAfter / 2`): a wake-up per entry was a thread switch per entry listed.
                if isLast { signal(changed) }
            }
        }

        /// Starts helpers until `width` are working on calls not stalled, or every entry is taken.
        func startHelpers() {
            let wanted = state.withLock { s -> Int in
                let time = now()
                let stalled = s.running.values.count { time &- $0 > stallNanoseconds }
                let idle = s.workers - s.running.count
                let missing = min(width - (s.workers - stalled), count - s.next - idle)
                s.workers += max(0, missing)
                return max(0, missing)
            }
            for _ in 0..<wanted { helpers.submit(work) }
        }

        startHelpers()
        changed.lock()
        while state.withLock({ $0.finished < count }) {
            _ = changed.wait(until: Date(timeIntervalSinceNow: stallAfter / 2))
            changed.unlock()
            startHelpers()
            changed.lock()
        }
        changed.unlock()
    }

    private static func signal(_ condition: NSCondition) {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Threads whose work allocates and frees the same memory over and over, a few milliseconds
/// apart: the listing threads, which probe file after file (`EntryFanOut`), and the track passes'
/// readers, which allocate each packet they demux. The program may have them do something before
/// they work, such as allocate from an arena of their own (mediafs's `ChurnArena`).
public enum ChurningThreads {
    private static let preparation = Mutex<(@Sendable () -> Void)?>(nil)

    /// Sets what such a thread runs each time before it takes work; nil for nothing.
    public static func prepare(with setUp: (@Sendable () -> Void)?) {
        preparation.withLock { $0 = setUp }
    }

    static func prepareThisThread() {
        preparation.withLock { $0 }?()
    }
}
