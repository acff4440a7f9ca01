import Foundation

/// What ends a session's wait: the loop returning, or a termination signal.
enum SessionEvent: Sendable, Equatable {
    case loopEnded(code: Int32)
    case signal(Int32)
}

/// A mailbox of session events, posted from the loop and signal threads, taken by the main thread.
final class SessionEvents: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [SessionEvent] = []

    func post(_ event: SessionEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    /// The next event that `matches`, or nil when none came within `seconds`.
    func next(within seconds: Double = .infinity, where matches: (SessionEvent) -> Bool = { _ in true }) -> SessionEvent? {
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
