import Synchronization

/// The first error thrown by work spread over threads (`EntryFanOut`, `concurrentPerform`), whose
/// calls cannot throw themselves: thrown by the caller once they are all done.
final class FirstError: Sendable {
    private let first = Mutex<(any Error)?>(nil)

    /// What `body` gives; nil, and its error noted, where it throws.
    func catching<Value>(_ body: () throws -> Value?) -> Value? {
        do {
            return try body()
        } catch {
            first.withLock { $0 = $0 ?? error }
            return nil
        }
    }

    /// Throws the first error noted, if any.
    func rethrow() throws {
        if let error = first.withLock({ $0 }) { throw error }
    }
}
