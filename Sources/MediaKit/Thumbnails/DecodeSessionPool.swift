import Dispatch
import Glibc
import Synchronization
import SystemPackage

/// The decode sessions of a service: the idle ones, kept so that the next request for the same
/// file and stream can continue where the last one stopped (see `DecodeSession.canContinue(to:)`),
/// and the memory of those decoding, bounded.
///
/// A session is checked out for one request (removed from the pool, so one thread uses it at a
/// time) and checked in after it. Memory is counted by each session's `memoryEstimate`, which
/// is nearly all in its decoder's frames (tens of megabytes for a 1080p film):
/// - **Decoding.** Before a request opens or wakes a decoder it reserves the decoder's estimate
///   (`reserve(_:deadline:)`); while the sessions decoding would exceed `busyBudget` together, it
///   waits for one to finish (a request alone may exceed it: one always runs).
/// - **Idle.** The awake idle sessions' estimates stay within `idleBudget`: beyond it, the least
///   recently used idle sessions sleep (`DecodeSession.sleep()`: the decoder freed, the file kept
///   open, so a later request saves the file's opening and analysis). A lone reader's session
///   (nothing else decoding) stays awake past the budget until another request reserves a
///   decoder. At most `capacity` sessions wait, awake or asleep; checking in one more closes
///   the least recently used.
///
/// Sessions of an older version of a file (another size or modification time at the same path)
/// are closed when the new version is asked for. A session left unused for `idleLifetime`
/// seconds is closed: its open file holds a removed source's disk space.
final class DecodeSessionPool: Sendable {
    /// Two per processor.
    static var defaultCapacity: Int { 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
    /// Long enough for someone stepping through a film's thumbnails, who pauses between them.
    static let defaultIdleLifetime = 30.0
    /// Bytes of awake idle sessions: room for one 1080p H.264 session with one thread, by
    /// `DecodeMemory`. One with frame threads sleeps once idle unless a lone reader's: keeping
    /// those awake too raised the peak of the bench's many-reader load (Docs/PERFORMANCE.md,
    /// "Memory").
    static let defaultIdleBudget = 32 << 20
    /// Bytes of sessions decoding at once: a 1080p H.264 session with two frame threads and one
    /// with one thread (by `DecodeMemory`'s estimate with four references), or a 4K session alone.
    static let defaultBusyBudget = 96 << 20

    let capacity: Int
    let idleLifetime: Double
    let idleBudget: Int
    let busyBudget: Int

    private struct Idle {
        let session: DecodeSession
        /// When it is closed if nobody takes it (`Deadline.now()` nanoseconds).
        let until: UInt64
        /// Its estimate when checked in; 0 asleep.
        let bytes: Int
    }

    private struct State {
        /// Least recently used first.
        var idle: [Idle] = []
        /// Bytes reserved by the sessions decoding, and how many they are; how many of them yield
        /// to the others (the background analysis's, which holds still while requests are served).
        var busyBytes = 0
        var busy = 0
        var yielding = 0
        /// The requests waiting for the busy budget, first come first.
        var waiting: [Waiter] = []
        /// The most bytes reserved at once, and the most sessions decoding at once.
        var peakBusyBytes = 0
        var peakBusy = 0
    }

    private final class Waiter: Sendable {
        let bytes: Int
        let wake = DispatchSemaphore(value: 0)
        /// Set under the pool's lock when the reservation is granted.
        let granted = Mutex<Reservation?>(nil)
        init(bytes: Int) { self.bytes = bytes }
    }

    private let state = Mutex(State())

    init(capacity: Int = DecodeSessionPool.defaultCapacity,
         idleLifetime: Double = DecodeSessionPool.defaultIdleLifetime,
         idleBudget: Int = DecodeSessionPool.defaultIdleBudget,
         busyBudget: Int = DecodeSessionPool.defaultBusyBudget) {
        self.capacity = max(0, capacity)
        self.idleLifetime = idleLifetime
        self.idleBudget = max(0, idleBudget)
        self.busyBudget = max(0, busyBudget)
    }

    // MARK: Idle sessions

    /// Takes a session for `key` out of the pool: the most recently used one for which `prefer`
    /// holds, else the most recently used awake one, else the most recently used one, else nil.
    func checkOut(_ key: DecodeSession.Key, prefer: (DecodeSession) -> Bool) -> DecodeSession? {
        let (found, stale) = state.withLock { s -> (DecodeSession?, [Idle]) in
            // Another version of the same path: the file changed, so its sessions are of no use.
            let stale = s.idle.filter { $0.session.key.file.path == key.file.path && $0.session.key.file != key.file }
            s.idle.removeAll { $0.session.key.file.path == key.file.path && $0.session.key.file != key.file }
            let candidates = s.idle.indices.filter { s.idle[$0].session.key == key }
            guard let chosen = candidates.last(where: { s.idle[$0].bytes > 0 && prefer(s.idle[$0].session) })
                    ?? candidates.last(where: { s.idle[$0].bytes > 0 }) ?? candidates.last else {
                return (nil, stale)
            }
            return (s.idle.remove(at: chosen).session, stale)
        }
        _ = stale  // closed here, outside the lock, when the array goes
        return found
    }

    /// Returns `session` to the pool: the least recently used awake sessions beyond `idleBudget`
    /// sleep, the least recently used beyond `capacity` are closed; `session` is closed
    /// `idleLifetime` seconds from now unless it is taken again meanwhile.
    func checkIn(_ session: DecodeSession) {
        let entry = Idle(session: session, until: Deadline.now() &+ UInt64(idleLifetime * 1e9),
                         bytes: session.isAwake ? session.memoryEstimate() : 0)
        let (evicted, tired) = state.withLock { s -> ([Idle], [Idle]) in
            s.idle.append(entry)
            let excess = s.idle.count - capacity
            let evicted = excess > 0 ? Array(s.idle.prefix(excess)) : []
            if excess > 0 { s.idle.removeFirst(excess) }
            // A lone reader's session (no other request decoding or waiting: its own
            // reservation is still held) stays awake past the budget, so that its next frames
            // continue from there, until another request reserves a decoder.
            let alone = s.busy <= 1 && s.waiting.isEmpty
            return (evicted, takeTired(&s, sparing: alone ? session : nil))
        }
        _ = evicted  // closed here, outside the lock
        putToSleep(tired)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + idleLifetime + 0.1) { [self] in
            closeExpired()
        }
    }

    /// Takes out of the list the awake idle sessions past `idleBudget`, newest kept first
    /// (`spared`, if awake, kept whatever its size).
    private func takeTired(_ s: inout State, sparing spared: DecodeSession?) -> [Idle] {
        var awake = 0
        var tired: [Idle] = []
        for i in s.idle.indices.reversed() where s.idle[i].bytes > 0 {
            if awake + s.idle[i].bytes <= idleBudget || (awake == 0 && s.idle[i].session === spared) {
                awake += s.idle[i].bytes
            } else {
                tired.append(s.idle.remove(at: i))
            }
        }
        return tired
    }

    /// Frees the decoders of `tired` (which joins their threads: outside the lock), then puts
    /// them back asleep in their place (least recently used first, by the time they expire).
    private func putToSleep(_ tired: [Idle]) {
        guard !tired.isEmpty else { return }
        for idle in tired { idle.session.sleep() }
        state.withLock { s in
            for idle in tired {
                let at = s.idle.firstIndex { $0.until > idle.until } ?? s.idle.endIndex
                s.idle.insert(Idle(session: idle.session, until: idle.until, bytes: 0), at: at)
            }
        }
    }

    /// Closes the sessions whose time is up, outside the lock (as the returned array goes).
    private func closeExpired() {
        let now = Deadline.now()
        _ = state.withLock { s -> [Idle] in
            let expired = s.idle.filter { $0.until < now }
            s.idle.removeAll { $0.until < now }
            return expired
        }
    }

    /// Closes every idle session of the file at `path` (whatever its version).
    func close(path: FilePath) {
        let closed = state.withLock { s -> [Idle] in
            let closed = s.idle.filter { $0.session.key.file.path == path }
            s.idle.removeAll { $0.session.key.file.path == path }
            return closed
        }
        _ = closed
    }

    /// How many sessions wait in the pool.
    var count: Int { state.withLock { $0.idle.count } }

    /// How many of them are awake, and their bytes by estimate.
    var awake: (count: Int, bytes: Int) {
        state.withLock { s in (s.idle.filter { $0.bytes > 0 }.count, s.idle.reduce(0) { $0 + $1.bytes }) }
    }

    // MARK: Sessions decoding

    /// Waits until `bytes` more fit in `busyBudget` beside the sessions decoding (or none is
    /// decoding), and reserves them. Requests are served in order.
    /// - Throws: `MediaError.timedOut` when `deadline` passes first.
    func reserve(_ bytes: Int, deadline: Deadline) throws -> Reservation {
        let waiter = Waiter(bytes: bytes)
        let (granted, tired) = state.withLock { s -> (Reservation?, [Idle]) in
            // A lone reader's session kept awake past the idle budget sleeps now.
            let tired = takeTired(&s, sparing: nil)
            if s.waiting.isEmpty, s.busy == 0 || s.busyBytes + bytes <= busyBudget {
                return (grant(bytes, in: &s), tired)
            }
            s.waiting.append(waiter)
            return (nil, tired)
        }
        putToSleep(tired)
        if let granted { return granted }
        let left = deadline.remaining
        if waiter.wake.wait(timeout: left.isFinite ? .now() + left : .distantFuture) == .timedOut {
            let stillWaiting = state.withLock { s -> Bool in
                guard let i = s.waiting.firstIndex(where: { $0 === waiter }) else { return false }
                s.waiting.remove(at: i)
                return true
            }
            if stillWaiting { throw MediaError.timedOut(seconds: deadline.seconds) }
            // Granted just as the time ran out: the grant stands.
            waiter.wake.wait()
        }
        return waiter.granted.withLock { $0! }
    }

    /// Reserves `bytes` if they fit in `busyBudget` now (or nothing is decoding), with nobody
    /// waiting; nil otherwise (for a decoder that is an extra, which must not wait behind its own
    /// request's, and for the background analysis, which waits for nobody's). `yields`: its
    /// session holds still while others decode (the background analysis), so they do not count it
    /// among the sessions decoding beside them (`Reservation.othersBusy`).
    func reserveIfFree(_ bytes: Int, yields: Bool = false) -> Reservation? {
        state.withLock { s in
            s.waiting.isEmpty && (s.busy == 0 || s.busyBytes + bytes <= busyBudget) ? grant(bytes, yields: yields, in: &s) : nil
        }
    }

    /// Gives back a reservation and lets waiting requests in, in order, while they fit.
    func release(_ reservation: Reservation) {
        state.withLock { s in
            s.busyBytes -= reservation.bytes
            s.busy -= 1
            if reservation.yields { s.yielding -= 1 }
            admitWaiting(&s)
        }
    }

    private func admitWaiting(_ s: inout State) {
        while let first = s.waiting.first, s.busy == 0 || s.busyBytes + first.bytes <= busyBudget {
            s.waiting.removeFirst()
            let reservation = grant(first.bytes, in: &s)
            first.granted.withLock { $0 = reservation }
            first.wake.signal()
        }
    }

    /// The reservation changed to `bytes` (the decoder opened is smaller than reserved, say);
    /// waiting requests that now fit are let in.
    func resize(_ reservation: Reservation, to bytes: Int) -> Reservation {
        state.withLock { s in
            s.busyBytes += bytes - reservation.bytes
            s.peakBusyBytes = max(s.peakBusyBytes, s.busyBytes)
            admitWaiting(&s)
        }
        return reservation.resized(to: bytes)
    }

    private func grant(_ bytes: Int, yields: Bool = false, in s: inout State) -> Reservation {
        let others = s.busy - s.yielding
        let besideYielding = s.yielding > 0
        s.busy += 1
        if yields { s.yielding += 1 }
        s.busyBytes += bytes
        s.peakBusy = max(s.peakBusy, s.busy)
        s.peakBusyBytes = max(s.peakBusyBytes, s.busyBytes)
        return Reservation(bytes: bytes, othersBusy: others, besideYielding: besideYielding,
                           room: busyBudget - s.busyBytes, yields: yields)
    }

    /// Sessions decoding now, and the most at once so far; bytes reserved now, and the most at once.
    var busy: (now: Int, peak: Int, bytes: Int, peakBytes: Int) {
        state.withLock { ($0.busy, $0.peakBusy, $0.busyBytes, $0.peakBusyBytes) }
    }

    /// The requests waiting for the busy budget now.
    var waiting: Int { state.withLock { $0.waiting.count } }
}
