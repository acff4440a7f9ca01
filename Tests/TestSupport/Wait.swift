import Foundation
import Glibc

/// The harness's one way of waiting: on a condition, with a bound, checking it again after a short
/// pause (1 ms at first, doubling up to `poll`); never a fixed pause standing for "long enough".
public enum Wait {
    /// Checks `condition` until it holds or `seconds` have passed.
    /// - Returns: whether it held (checked once more at the bound).
    /// - Throws: what `condition` throws, at once.
    @discardableResult
    public static func until(_ seconds: Double, poll: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        let longest = useconds_t(poll * 1_000_000)
        var pause: useconds_t = min(1_000, longest)
        while true {
            if try condition() { return true }
            if Date() >= deadline { return false }
            usleep(pause)
            pause = min(pause * 2, longest)
        }
    }
}
