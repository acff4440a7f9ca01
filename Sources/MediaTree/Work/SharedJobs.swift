import Synchronization

/// Work done once per key however many ask at the same time, on a `WorkerPool`, with the answer
/// handed to every asker's completion. No asker's thread waits: completions run on the pool's
/// thread that did the work (or at once on the asker's thread when the answer is kept, or found
/// by `quick`).
///
/// Answers are kept in a `MemoryCache`; failures are shared with those who asked meanwhile, but
/// not kept, so the next request tries again.
final class SharedJobs<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Completion = @Sendable (Result<Value, Error>) -> Void

    let cache: MemoryCache<Key, Value>
    private let pool: WorkerPool
    private let cost: @Sendable (Value) -> Int
    private let isCurrent: @Sendable (Value) -> Bool
    private let pending = Mutex<[Key: [Completion]]>([:])

    /// - Parameters:
    ///   - cost: what a value costs in the cache (its bytes).
    ///   - isCurrent: whether a kept value may still be served (false: it is made again).
    init(pool: WorkerPool, cache: MemoryCache<Key, Value>, cost: @escaping @Sendable (Value) -> Int,
         isCurrent: @escaping @Sendable (Value) -> Bool = { _ in true }) {
        self.pool = pool
        self.cache = cache
        self.cost = cost
        self.isCurrent = isCurrent
    }

    /// Calls `completion` with the value for `key`: kept, found by `quick`, under way, or made now
    /// by `work` on the pool.
    /// - Parameters:
    ///   - skipCache: do not serve the kept value (it was found wrong).
    ///   - quick: a cheap look on the asker's thread before any work is queued (a file on disk,
    ///     say), so that it never waits behind long jobs; its value is kept.
    ///   - afterward: runs on the pool's thread after the completions, with a value `work` made
    ///     (not with one kept or found): what the askers need not wait for.
    func request(_ key: Key, skipCache: Bool = false, quick: (() -> Value?)? = nil,
                 work: @escaping @Sendable () throws -> Value,
                 afterward: (@Sendable (Value) -> Void)? = nil, completion: @escaping Completion) {
        if !skipCache, let kept = cache.value(for: key), isCurrent(kept) { return completion(.success(kept)) }
        if let quick, !isPending(key), let found = quick() {
            cache.insert(found, cost: cost(found), for: key)
            return completion(.success(found))
        }
        let isFirst = pending.withLock { waiting -> Bool in
            if waiting[key] != nil {
                waiting[key]!.append(completion)
                return false
            }
            waiting[key] = [completion]
            return true
        }
        guard isFirst else { return }
        pool.submit { [self] in
            // Made meanwhile by a job that ended between our cache check and our registration.
            let kept = skipCache ? nil : cache.value(for: key).flatMap { isCurrent($0) ? $0 : nil }
            let result = kept.map { Result.success($0) } ?? Result { try work() }
            if case .success(let value) = result { cache.insert(value, cost: cost(value), for: key) }
            let waiters = pending.withLock { $0.removeValue(forKey: key) ?? [] }
            for waiter in waiters { waiter(result) }
            if kept == nil, let afterward, case .success(let value) = result { afterward(value) }
        }
    }

    private func isPending(_ key: Key) -> Bool { pending.withLock { $0[key] != nil } }

    /// Keys whose work is queued or running.
    var inFlight: Int { pending.withLock { $0.count } }
}
