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
