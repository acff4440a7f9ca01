import Synchronization

/// A value worked out once, on the thread of the first asker, then kept: one fact of a version of a
/// media file (its probe, its chapters, a chapter's artwork) in its record (`VersionFacts`).
///
/// Nobody waits for another thread's work, on a lock or a condition. An asker that finds the
/// value being worked out throws `Pending`: the operation it is part of runs again once the value
/// is there (`MediaTree.resuming`). Work that throws leaves the cell empty, and those pending run
/// again; a failure worth keeping is a value (`Result`). A value worked out after something gave
/// up rather than wait (`AtOnce`) may rest on a stand-in: it is not kept.
final class Once<Value: Sendable>: Sendable {
    private enum State {
        case empty
        /// Being worked out; what runs again once it is done.
        case working([@Sendable () -> Void])
        case done(Value)
    }

    private let state: Mutex<State>
    /// Whether the work reads a file or the database: not done on a thread that must not wait
    /// (`AtOnce`), where it gives up instead.
    private let readsFiles: Bool

    /// An empty cell; `readsFiles` where its work reads a file or the database.
    init(readsFiles: Bool) {
        state = Mutex(.empty)
        self.readsFiles = readsFiles
    }

    /// A cell holding `value`.
    init(_ value: Value) {
        state = Mutex(.done(value))
        readsFiles = false
    }

    /// The value, if it is known; works nothing out.
    var known: Value? {
        state.withLock { if case .done(let value) = $0 { value } else { nil } }
    }

    /// The value, worked out by `work` on this thread unless it is known.
    /// - Throws: what `work` throws; `Pending` where another thread is working it out;
    ///   `AtOnce.GaveUp` inside `AtOnce.run` where it is not known and would be worked out here
    ///   (its work reads files) or waited for.
    func value(_ work: () throws -> Value) throws -> Value {
        let known = try state.withLock { state -> Value? in
            switch state {
            case .done(let value):
                return value
            case .working:
                if AtOnce.givesUp() { throw AtOnce.GaveUp() }
                throw Pending(cell: self)
            case .empty:
                if readsFiles && AtOnce.givesUp() { throw AtOnce.GaveUp() }
                state = .working([])
                return nil
            }
        }
        if let known { return known }
        let result = Result { try work() }
        let keeps = !AtOnce.hasGivenUp
        let waiting = state.withLock { state -> [@Sendable () -> Void] in
            guard case .working(let waiting) = state else { return [] }
            if keeps, case .success(let value) = result {
                state = .done(value)
            } else {
                state = .empty
            }
            return waiting
        }
        for resume in waiting { resume() }
        return try result.get()
    }

    /// Runs `resume` once the value is worked out (or the work failed): at once where it is not
    /// being worked out now.
    fileprivate func whenWorkedOut(_ resume: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard case .working(var waiting) = state else { return true }
            waiting.append(resume)
            state = .working(waiting)
            return false
        }
        if now { resume() }
    }
}

/// A value an operation needs is being worked out by another thread: the operation runs again once
/// it is there (`MediaTree.resuming`), rather than wait for it.
struct Pending: Error {
    private let register: @Sendable (@escaping @Sendable () -> Void) -> Void

    fileprivate init<Value>(cell: Once<Value>) {
        register = { cell.whenWorkedOut($0) }
    }

    /// Runs `resume` once the value is there.
    func whenReady(_ resume: @escaping @Sendable () -> Void) { register(resume) }
}

extension Pending {
    /// What `body` gives, or nil where it fails, as `try?` would; but `Pending` and
    /// `AtOnce.GaveUp` are thrown: that work is not done yet rather than failed, and what is left
    /// out for it would be missing from an answer that is kept.
    static func nilWhereFailing<Value>(_ body: () throws -> Value?) throws -> Value? {
        do {
            return try body()
        } catch let waiting as Pending {
            throw waiting
        } catch let gaveUp as AtOnce.GaveUp {
            throw gaveUp
        } catch {
            return nil
        }
    }
}
