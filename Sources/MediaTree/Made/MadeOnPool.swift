import Synchronization

/// Where made values are kept across mounts (the disk cache's files, the cache folder's track
/// sets): looked in before anything is made, written once the askers have their answer.
protocol MadeShelf<Key, Value>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable
    /// The value kept for `key`, whole and checked; nil where there is none.
    func load(_ key: Key) -> Value?
    /// Keeps `value`, just made for `key`. Runs on the pool's thread after the askers were answered.
    func keep(_ value: Value, for key: Key)
}

/// The one way made things are had: from memory at once, else from the shelf, else made once on a
/// pool however many ask meanwhile; each way counted (`MadeCounters`). No asker's thread waits:
/// completions run at once on the asker's thread (kept in memory or on the shelf), or on the
/// pool's thread that made the value.
///
/// Failures are handed to everyone who asked meanwhile but not kept: the next request tries again.
/// Memory may keep a value in another form than it is served in (`pack`, `unpack`: pictures
/// deflated), made on the pool's thread or the asker's that found it.
final class MadeOnPool<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Completion = @Sendable (Result<Value, Error>) -> Void

    let memory: MemoryCache<Key, Value>
    private let pool: WorkerPool
    private let shelf: (any MadeShelf<Key, Value>)?
    private let cost: @Sendable (Value) -> Int
    private let isCurrent: @Sendable (Value) -> Bool
    private let counters: @Sendable (Key) -> MadeCounters?
    private let pack: @Sendable (Value) -> Value
    private let unpack: @Sendable (Value) throws -> Value
    private let pending = Mutex<[Key: [Completion]]>([:])

    /// - Parameters:
    ///   - cost: what a value costs in memory (its bytes).
    ///   - isCurrent: whether a value kept in memory may still be served (false: it is looked for
    ///     again).
    ///   - counters: where a key's kind is counted; nil counts nothing.
    ///   - pack: the form memory keeps a value in (`cost` is of that form); `unpack` gives it back.
    init(pool: WorkerPool, memory: MemoryCache<Key, Value>, shelf: (any MadeShelf<Key, Value>)? = nil,
         cost: @escaping @Sendable (Value) -> Int, isCurrent: @escaping @Sendable (Value) -> Bool = { _ in true },
         counters: @escaping @Sendable (Key) -> MadeCounters? = { _ in nil },
         pack: @escaping @Sendable (Value) -> Value = { $0 }, unpack: @escaping @Sendable (Value) throws -> Value = { $0 }) {
        self.pool = pool
        self.memory = memory
        self.shelf = shelf
        self.cost = cost
        self.isCurrent = isCurrent
        self.counters = counters
        self.pack = pack
        self.unpack = unpack
    }

    /// Calls `completion` with the value for `key`: kept in memory, kept on the shelf, under way,
    /// or made now by `make` on the pool.
    /// - Parameters:
    ///   - skipMemory: do not serve the value kept in memory (it was found wrong).
    ///   - here: make it on this thread rather than the pool's (a thread that may wait, at its own
    ///     priority: the analysis's); everyone asking meanwhile shares it as ever.
    func request(_ key: Key, skipMemory: Bool = false, here: Bool = false, make: @escaping @Sendable () throws -> Value,
                 completion: @escaping Completion) {
        if !skipMemory, let kept = fromMemory(key) { return completion(.success(kept)) }
        // A look at the shelf on the asker's thread, so that a kept value never waits behind long
        // work on the pool; not while the value is being made (it is being written there).
        if !isPending(key), let kept = fromShelf(key) { return completion(.success(kept)) }
        let isFirst = pending.withLock { waiting -> Bool in
            if waiting[key] != nil {
                waiting[key]!.append(completion)
                return false
            }
            waiting[key] = [completion]
            return true
        }
        guard isFirst else { return }
        let work = { @Sendable [self] in
            // Made meanwhile by work that ended between the looks above and the registration.
            let kept = (skipMemory ? nil : fromMemory(key)) ?? fromShelf(key)
            let result = kept.map { Result.success($0) } ?? Result { try make() }
            if kept == nil {
                switch result {
                case .success: counters(key)?.made.add(1, ordering: .relaxed)
                case .failure: counters(key)?.failures.add(1, ordering: .relaxed)
                }
            }
            // In memory before the answers, so that nobody asking now makes it again; packed after
            // them, so that packing a picture does not delay them.
            if kept == nil, case .success(let value) = result { memory.insert(value, cost: cost(value), for: key) }
            let waiters = pending.withLock { $0.removeValue(forKey: key) ?? [] }
            for waiter in waiters { waiter(result) }
            if kept == nil, case .success(let value) = result {
                keep(value, for: key)
                shelf?.keep(value, for: key)
            }
        }
        if here { work() } else { pool.submit(work) }
    }

    /// The value kept in memory for `key`, if it may still be served; makes nothing.
    func fromMemory(_ key: Key) -> Value? {
        guard let kept = memory.value(for: key), isCurrent(kept) else { return nil }
        guard let value = try? unpack(kept) else {
            memory.remove(key)
            return nil
        }
        return value
    }

    /// Keeps `value` in memory for `key`, in its packed form.
    func keep(_ value: Value, for key: Key) {
        let packed = pack(value)
        memory.insert(packed, cost: cost(packed), for: key)
    }

    /// The value kept on the shelf for `key`, then kept in memory too.
    private func fromShelf(_ key: Key) -> Value? {
        guard let shelf, let kept = shelf.load(key) else { return nil }
        counters(key)?.fromDisk.add(1, ordering: .relaxed)
        keep(kept, for: key)
        return kept
    }

    private func isPending(_ key: Key) -> Bool { pending.withLock { $0[key] != nil } }

    /// Keys whose work is queued or running.
    var inFlight: Int { pending.withLock { $0.count } }
}
