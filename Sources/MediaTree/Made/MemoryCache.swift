import Synchronization

/// Values kept in memory up to a total cost (bytes), the least recently used dropped first.
///
/// Entries sit in slots of one array, linked from the most to the least recently used, so a use
/// moves one entry to the front and an eviction takes from the back: constant time under the lock
/// whatever the cache holds.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Slot {
        var key: Key
        var value: Value?
        var cost: Int
        /// Neighbours towards the most recently used (`newer`) and the least (`older`); -1 at the ends.
        var newer: Int
        var older: Int
    }

    private struct State {
        var index: [Key: Int] = [:]
        var slots = SlotArray<Slot>()
        var newest = -1
        var oldest = -1
        var total = 0
        var hits = 0
        var misses = 0

        mutating func unlink(_ slot: Int) {
            let (newer, older) = (slots[slot].newer, slots[slot].older)
            if newer >= 0 { slots[newer].older = older } else { newest = older }
            if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        }

        mutating func linkAsNewest(_ slot: Int) {
            slots[slot].newer = -1
            slots[slot].older = newest
            if newest >= 0 { slots[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            index[slots[slot].key] = nil
            total -= slots[slot].cost
            slots[slot].value = nil
            slots.empty(slot)
        }
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
            guard let slot = s.index[key] else {
                s.misses += 1
                return nil
            }
            s.hits += 1
            if s.newest != slot {
                s.unlink(slot)
                s.linkAsNewest(slot)
            }
            return s.slots[slot].value
        }
    }

    /// Keeps `value` at `cost`, dropping the least recently used values until all fit. A value that
    /// costs more than the whole capacity is not kept.
    public func insert(_ value: Value, cost: Int, for key: Key) {
        guard cost <= capacity else { return }
        state.withLock { s in
            if let old = s.index[key] { s.remove(old) }
            while s.total + cost > capacity, s.oldest >= 0 { s.remove(s.oldest) }
            let slot = s.slots.fill { _ in Slot(key: key, value: value, cost: cost, newer: -1, older: -1) }
            s.index[key] = slot
            s.total += cost
            s.linkAsNewest(slot)
        }
    }

    /// What the value kept for `key` is counted at; nil where none is kept.
    public func cost(of key: Key) -> Int? {
        state.withLock { s in s.index[key].map { s.slots[$0].cost } }
    }

    /// Drops the value kept for `key`, if any.
    public func remove(_ key: Key) {
        state.withLock { s in
            if let slot = s.index[key] { s.remove(slot) }
        }
    }

    /// What the cache holds and how it has been used.
    public var statistics: (entries: Int, cost: Int, hits: Int, misses: Int) {
        state.withLock { ($0.index.count, $0.total, $0.hits, $0.misses) }
    }
}
