import Synchronization

/// A value worked out from what is known already (the probe, another fact): cheap, so kept once
/// made, and two threads asking at once may both work it out; neither waits for the other. A
/// value worked out after something gave up rather than wait (`AtOnce`) is not kept.
final class Lazy<Value: Sendable>: Sendable {
    private let kept = Mutex<Value?>(nil)

    init() {}

    /// The value, made by `make` unless kept.
    /// - Throws: what `make` throws (nothing is kept then).
    func value(_ make: () throws -> Value) rethrows -> Value {
        if let known = kept.withLock({ $0 }) { return known }
        let made = try make()
        guard !AtOnce.hasGivenUp else { return made }
        return kept.withLock { kept in
            if let earlier = kept { return earlier }
            kept = made
            return made
        }
    }

    /// The value, if made.
    var known: Value? { kept.withLock { $0 } }
}

/// A value worked out for a stamp (what the analysis of a version had found), the last one kept:
/// asked for with another stamp, it is worked out again (once more for each stamp in turn).
final class LatestLazy<Value: Sendable>: Sendable {
    private let kept = Mutex<(stamp: UInt64, value: Value)?>(nil)

    init() {}

    /// The value for `stamp`, made by `make` unless kept for it.
    func value(for stamp: UInt64, _ make: () -> Value) -> Value {
        if let known = kept.withLock({ $0 }), known.stamp == stamp { return known.value }
        let made = make()
        guard !AtOnce.hasGivenUp else { return made }
        kept.withLock { $0 = (stamp, made) }
        return made
    }
}
