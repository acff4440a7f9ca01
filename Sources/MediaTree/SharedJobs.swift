import Synchronization

/// Work done once per key however many ask at the same time, on a `WorkerPool`, with the answer
/// handed to every asker's completion. No asker's thread waits: completions run on the pool's
/// thread that did the work (or at once on the asker's thread when the answer is kept).
///
/// Answers are kept in a `MemoryCache`; failures are shared with those who asked meanwhile, but
/// not kept, so the next request tries again.
final class SharedJobs<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Completion = @Sendable (Result<Value, Error>) -> Void

    let cache: MemoryCache<Key, Value>
    private let pool: WorkerPool
    private let cost: @Sendable (Value) -> Int
    private let pending = Mutex<[Key: [Completion]]>([:])

    /// - Parameter cost: what a value costs in the cache (its bytes).
    init(pool: WorkerPool, cache: MemoryCache<Key, Value>, cost: @escaping @Sendable (Value) -> Int) {
        self.pool = pool
        self.cache = cache
        self.cost = cost
    }

    /// Calls `completion` with the value for `key`: kept, under way, or made now by `work` on the pool.
    func request(_ key: Key, work: @escaping @Sendable () throws -> Value, completion: @escaping Completion) {
        if let kept = cache.value(for: key) { return completion(.success(kept)) }
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
            let result = cache.value(for: key).map { Result.success($0) } ?? Result { try work() }
            if case .success(let value) = result { cache.insert(value, cost: cost(value), for: key) }
            let waiters = pending.withLock { $0.removeValue(forKey: key) ?? [] }
            for waiter in waiters { waiter(result) }
        }
    }

    /// Keys whose work is queued or running.
    var inFlight: Int { pending.withLock { $0.count } }
}
