import Synchronization

/// Work on a thread that must not wait: libfuse's own, where an `opendir` is answered when its
/// listing can be had at once (FuseBridge's `NumberedTree.listingAtOnce`). Inside `run`, what would
/// wait gives up instead: a value whose work reads a file or the database (a probe, a chapter
/// list, a chapter's artwork: a `Once` made with `readsFiles`) when it is not known, or any value
/// being worked out on another thread; and a file being written (`settledStat`). `run` then
/// answers nil, whatever its body made of that, and the caller hands the request to a worker.
/// What a `run` works out after something gave up may rest on a stand-in (a caller's fallback for
/// the value not had): it is not kept (`Once`, `Lazy`, the listing facts learnt, documents).
public enum AtOnce {
    /// One `run`: whether anything in it gave up.
    private final class Scope: Sendable {
        let gaveUp = Atomic(false)
    }

    @TaskLocal private static var scope: Scope?

    /// What `body` gives, or nil where something in it would have waited.
    public static func run<Value>(_ body: () -> Value?) -> Value? {
        let scope = Scope()
        let value = $scope.withValue(scope) { body() }
        return scope.gaveUp.load(ordering: .relaxed) ? nil : value
    }

    /// Whether the caller, about to wait, must give up instead: it runs inside `run`, which then
    /// answers nil.
    static func givesUp() -> Bool {
        guard let scope else { return false }
        scope.gaveUp.store(true, ordering: .relaxed)
        return true
    }

    /// Whether something in the current `run` gave up: what is worked out after that may rest on a
    /// stand-in for what was not waited for, and is not kept.
    static var hasGivenUp: Bool { scope?.gaveUp.load(ordering: .relaxed) ?? false }

    /// Thrown where a value would have been waited for.
    struct GaveUp: Error {}
}
