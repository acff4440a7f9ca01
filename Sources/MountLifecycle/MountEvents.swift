import Foundation

/// What ends a served mount's wait: its loop returning, or a termination signal.
enum MountEvent: Sendable, Equatable {
    case loopEnded(code: Int32)
    case signal(Int32)
}

/// A mailbox of mount events, posted from the loop and signal threads, taken by the main thread.
/// `@unchecked`: the list is guarded by the condition's lock, and `Mutex` has no wait with a deadline.
final class MountEvents: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [MountEvent] = []

    func post(_ event: MountEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    /// The next event that `matches`, or nil when none came within `seconds`.
    func next(within seconds: Double = .infinity, where matches: (MountEvent) -> Bool = { _ in true }) -> MountEvent? {
        let deadline = seconds.isFinite ? Date(timeIntervalSinceNow: seconds) : nil
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = events.firstIndex(where: matches) { return events.remove(at: index) }
            if let deadline {
                if !condition.wait(until: deadline) { return nil }
            } else {
                condition.wait()
            }
        }
    }
}
