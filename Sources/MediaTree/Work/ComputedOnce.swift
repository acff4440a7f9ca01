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
/// A value whose work reads a file or the database (`readsFiles`) is neither worked out nor waited
/// for inside `AtOnce.run` (on a thread that must not wait): there, a value not kept throws
/// `AtOnce.GaveUp`. What a `run` works out after something in it gave up may rest on a stand-in:
/// it is neither kept nor given to those waiting.
///
/// `@unchecked Sendable`: waiting callers need a condition variable (`NSCondition`), which
/// `Synchronization` has not; every field is read and written under `lock`.
final class ComputedOnce<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private final class Pending {
        var result: Result<Value, Error>?
        /// The asker's result rested on a stand-in (`AtOnce`): not given to those waiting, who work
        /// the value out again.
        var isStandIn = false
    }

    private let lock = NSCondition()
    private var done: [Key: Result<Value, Error>] = [:]
    /// Kept keys, oldest first: a `Deque`, as an array's `removeFirst` moved every key left at each
    /// insertion once full (a listing of 10,000 films keeps a document per film).
    private var order: Deque<Key> = []
    private var pending: [Key: Pending] = [:]
    private let capacity: Int
    private let keepsFailure: @Sendable (Error) -> Bool
    private let readsFiles: Bool

    /// - Parameters:
    ///   - keepsFailure: whether a failure is kept like a value (by default, every one is).
    ///   - readsFiles: whether the work reads a file or the database (else it only computes).
    init(capacity: Int, keepsFailure: @escaping @Sendable (Error) -> Bool = { _ in true }, readsFiles: Bool = false) {
        self.capacity = capacity
        self.keepsFailure = keepsFailure
        self.readsFiles = readsFiles
    }

    /// The kept result for `key`, without computing.
    func cached(_ key: Key) -> Result<Value, Error>? {
        lock.lock()
        defer { lock.unlock() }
        return done[key]
    }

    /// The value for `key`, computed by `work` unless kept or under way.
    /// - Throws: what `work` throws; `AtOnce.GaveUp` inside `AtOnce.run` where `work` reads files
    ///   and the value is not kept.
    func value(for key: Key, _ work: () throws -> Value) throws -> Value {
        lock.lock()
        while true {
            if let result = done[key] {
                lock.unlock()
                return try result.get()
            }
            if readsFiles && AtOnce.givesUp() {
                lock.unlock()
                throw AtOnce.GaveUp()
            }
            guard let waiting = pending[key] else { break }
            while waiting.result == nil && !waiting.isStandIn { lock.wait() }
            if let result = waiting.result {
                lock.unlock()
                return try result.get()
            }
        }
        let mine = Pending()
        pending[key] = mine
        lock.unlock()

        let result = Result { try work() }
        let isStandIn = AtOnce.hasGivenUp

        lock.lock()
        pending[key] = nil
        if isStandIn {
            mine.isStandIn = true
        } else {
            mine.result = result
            // A failure of the moment is given to those waiting, not kept.
            let keeps = if case .failure(let error) = result { keepsFailure(error) } else { true }
            if keeps {
                done[key] = result
                order.append(key)
                while order.count > capacity { done[order.removeFirst()] = nil }
            }
        }
        lock.broadcast()
        lock.unlock()
        return try result.get()
    }
}
