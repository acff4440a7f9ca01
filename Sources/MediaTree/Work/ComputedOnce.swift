import DequeModule
import Foundation
import Synchronization

/// Values computed once per key on the first asker's thread, however many ask at the same time,
/// the last `capacity` results kept.
///
/// The first caller for a key does the work on its own thread; callers that arrive meanwhile wait for
/// it and get the same result (value or error). Values are kept up to `capacity` entries, the oldest
/// dropped first; a failure is kept only where `keepsFailure` says the same work would fail again
/// (a damaged file), so a failure of the moment (a probe that timed out on a busy disk) is tried
/// again by the next caller.
///
/// `@unchecked Sendable`: waiting callers need a condition variable (`NSCondition`), which
/// `Synchronization` has not; every field is read and written under `lock`.
final class ComputedOnce<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private final class Pending {
        var result: Result<Value, Error>?
    }

    private let lock = NSCondition()
    private var done: [Key: Result<Value, Error>] = [:]
    /// Kept keys, oldest first: a `Deque`, as an array's `removeFirst` moved every key left at each
    /// insertion once full (a listing of 10,000 films keeps a document per film).
    private var order: Deque<Key> = []
    private var pending: [Key: Pending] = [:]
    private let capacity: Int
    private let keepsFailure: @Sendable (Error) -> Bool

    /// - Parameter keepsFailure: whether a failure is kept like a value (by default, every one is).
    init(capacity: Int, keepsFailure: @escaping @Sendable (Error) -> Bool = { _ in true }) {
        self.capacity = capacity
        self.keepsFailure = keepsFailure
    }

    /// The kept result for `key`, without computing.
    func cached(_ key: Key) -> Result<Value, Error>? {
        lock.lock()
        defer { lock.unlock() }
        return done[key]
    }

    /// The value for `key`, computed by `work` unless kept or under way.
    func value(for key: Key, _ work: () throws -> Value) throws -> Value {
        lock.lock()
        if let result = done[key] {
            lock.unlock()
            return try result.get()
        }
        if let waiting = pending[key] {
            while waiting.result == nil { lock.wait() }
            lock.unlock()
            return try waiting.result!.get()
        }
        let mine = Pending()
        pending[key] = mine
        lock.unlock()

        let result = Result { try work() }

        lock.lock()
        mine.result = result
        pending[key] = nil
        if case .failure(let error) = result, !keepsFailure(error) {
            lock.broadcast()
            lock.unlock()
            return try result.get()
        }
        done[key] = result
        order.append(key)
        while order.count > capacity { done[order.removeFirst()] = nil }
        lock.broadcast()
        lock.unlock()
        return try result.get()
    }
}
