import Foundation

/// A count of pieces of work under way, that another thread can wait to reach zero (at unmount,
/// say, for work the askers did not wait for). `@unchecked`: the count is guarded by `condition`,
/// whose waits `Mutex` cannot do.
final class WorkCount: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func begin() {
        condition.lock()
        count += 1
        condition.unlock()
    }

    func end() {
        condition.lock()
        count -= 1
        if count == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Waits until no work is under way, at most `seconds`; whether none is.
    func waitUntilIdle(seconds: Double) -> Bool {
        let limit = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while count > 0 {
            if !condition.wait(until: limit) { return count == 0 }
        }
        return true
    }
}
