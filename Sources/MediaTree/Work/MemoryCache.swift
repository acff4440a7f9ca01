import Synchronization

/// Values kept in memory up to a total cost (bytes), the least recently used dropped first.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var total = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// The most the kept values may cost together.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept for `key`, marked as just used.
    public func value(for key: Key) -> Value? {
        state.withLock { s in
            s.clock += 1
            guard var entry = s.entries[key] else {
                s.misses += 1
                return nil
            }
            s.hits += 1
            entry.lastUse = s.clock
            s.entries[key] = entry
            return entry.value
        }
    }

    /// Keeps `value` at `cost`, dropping the least recently used values until all fit. A value that
    /// costs more than the whole capacity is not kept.
    public func insert(_ value: Value, cost: Int, for key: Key) {
        guard cost <= capacity else { return }
        state.withLock { s in
            s.clock += 1
            if let old = s.entries[key] { s.total -= old.cost }
            s.entries[key] = Entry(value: value, cost: cost, lastUse: s.clock)
            s.total += cost
            guard s.total > capacity else { return }
            // Evict in one pass: oldest first until within the bound.
            let byAge = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }
            for (oldKey, entry) in byAge where s.total > capacity && oldKey != key {
                s.entries[oldKey] = nil
                s.total -= entry.cost
            }
        }
    }

    /// What the cache holds and how it has been used.
    public var statistics: (entries: Int, cost: Int, hits: Int, misses: Int) {
        state.withLock { ($0.entries.count, $0.total, $0.hits, $0.misses) }
    }
}
