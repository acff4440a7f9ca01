import Dispatch
import Glibc
import Synchronization

/// The decode sessions not in use, kept open so that the next request for the same file and
/// stream can continue where the last one stopped (see `DecodeSession.canContinue(to:)`).
///
/// A session is checked out for one request (removed from the pool, so one thread uses it at a
/// time) and checked in after it. At most `capacity` sessions wait here; checking in one more
/// closes the least recently used. Sessions of an older version of a file (another size or
/// modification time at the same path) are closed when the new version is asked for. A session
/// left unused for `idleLifetime` seconds is closed: its decoder's frames are tens of megabytes
/// for a 1080p film, and its open file holds a removed source's disk space. Sessions in use are
/// not counted: their number is bounded by the callers' worker threads.
final class DecodeSessionPool: Sendable {
    /// Two per processor.
    static var defaultCapacity: Int {
        if let c = getenv("MEDIAFS_X_POOL").flatMap({ Int(String(cString: $0)) }) { return c }  // EXPERIMENT
        return 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
    /// Long enough for someone stepping through a film's thumbnails, who pauses between them.
    static let defaultIdleLifetime = 30.0

    let capacity: Int
    let idleLifetime: Double

    private struct Idle {
        let session: DecodeSession
        /// When it is closed if nobody takes it (`Deadline.now()` nanoseconds).
        let until: UInt64
    }

    /// Least recently used first.
    private let idle = Mutex<[Idle]>([])

    init(capacity: Int = DecodeSessionPool.defaultCapacity,
         idleLifetime: Double = DecodeSessionPool.defaultIdleLifetime) {
        self.capacity = max(0, capacity)
        self.idleLifetime = idleLifetime
    }

    /// Takes a session for `key` out of the pool: the most recently used one for which `prefer`
    /// holds, else the most recently used one, else nil.
    func checkOut(_ key: DecodeSession.Key, prefer: (DecodeSession) -> Bool) -> DecodeSession? {
        let (found, stale) = idle.withLock { sessions -> (DecodeSession?, [Idle]) in
            // Another version of the same path: the file changed, so its sessions are of no use.
            let stale = sessions.filter { $0.session.key.file.path == key.file.path && $0.session.key.file != key.file }
            sessions.removeAll { $0.session.key.file.path == key.file.path && $0.session.key.file != key.file }
            let candidates = sessions.indices.filter { sessions[$0].session.key == key }
            guard let chosen = candidates.last(where: { prefer(sessions[$0].session) }) ?? candidates.last else {
                return (nil, stale)
            }
            return (sessions.remove(at: chosen).session, stale)
        }
        _ = stale  // closed here, outside the lock, when the array goes
        return found
    }

    /// Returns `session` to the pool, closing the least recently used beyond `capacity`, and
    /// closes it `idleLifetime` seconds from now unless it is taken again meanwhile.
    func checkIn(_ session: DecodeSession) {
        let entry = Idle(session: session, until: Deadline.now() &+ UInt64(idleLifetime * 1e9))
        let evicted = idle.withLock { sessions -> [Idle] in
            sessions.append(entry)
            let excess = sessions.count - capacity
            guard excess > 0 else { return [] }
            let evicted = Array(sessions.prefix(excess))
            sessions.removeFirst(excess)
            return evicted
        }
        _ = evicted
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + idleLifetime + 0.1) { [self] in
            closeExpired()
        }
    }

    /// Closes the sessions whose time is up, outside the lock (as the returned array goes).
    private func closeExpired() {
        let now = Deadline.now()
        _ = idle.withLock { sessions -> [Idle] in
            let expired = sessions.filter { $0.until < now }
            sessions.removeAll { $0.until < now }
            return expired
        }
    }

    /// Closes every idle session of the file at `path` (whatever its version).
    func close(path: String) {
        let closed = idle.withLock { sessions -> [Idle] in
            let closed = sessions.filter { $0.session.key.file.path == path }
            sessions.removeAll { $0.session.key.file.path == path }
            return closed
        }
        _ = closed
    }

    /// How many sessions wait in the pool.
    var count: Int { idle.withLock { $0.count } }
}
