import Glibc
import Synchronization

/// The decode sessions not in use, kept open so that the next request for the same file and
/// stream can continue where the last one stopped (see `DecodeSession.canContinue(to:)`).
///
/// A session is checked out for one request (removed from the pool, so one thread uses it at a
/// time) and checked in after it. At most `capacity` sessions wait here; checking in one more
/// closes the least recently used. Sessions of an older version of a file (another size or
/// modification time at the same path) are closed when the new version is asked for. Sessions in
/// use are not counted: their number is bounded by the callers' worker threads.
final class DecodeSessionPool: Sendable {
    /// Two per processor.
    static var defaultCapacity: Int { 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    let capacity: Int
    /// Least recently used first.
    private let idle = Mutex<[DecodeSession]>([])

    init(capacity: Int = DecodeSessionPool.defaultCapacity) {
        self.capacity = max(0, capacity)
    }

    /// Takes a session for `key` out of the pool: the most recently used one for which `prefer`
    /// holds, else the most recently used one, else nil.
    func checkOut(_ key: DecodeSession.Key, prefer: (DecodeSession) -> Bool) -> DecodeSession? {
        let (found, stale) = idle.withLock { sessions -> (DecodeSession?, [DecodeSession]) in
            // Another version of the same path: the file changed, so its sessions are of no use.
            let stale = sessions.filter { $0.key.file.path == key.file.path && $0.key.file != key.file }
            sessions.removeAll { $0.key.file.path == key.file.path && $0.key.file != key.file }
            let candidates = sessions.indices.filter { sessions[$0].key == key }
            guard let chosen = candidates.last(where: { prefer(sessions[$0]) }) ?? candidates.last else {
                return (nil, stale)
            }
            return (sessions.remove(at: chosen), stale)
        }
        _ = stale  // closed here, outside the lock, when the array goes
        return found
    }

    /// Returns `session` to the pool, closing the least recently used beyond `capacity`.
    func checkIn(_ session: DecodeSession) {
        let evicted = idle.withLock { sessions -> [DecodeSession] in
            sessions.append(session)
            let excess = sessions.count - capacity
            guard excess > 0 else { return [] }
            let evicted = Array(sessions.prefix(excess))
            sessions.removeFirst(excess)
            return evicted
        }
        _ = evicted
    }

    /// Closes every idle session of the file at `path` (whatever its version).
    func close(path: String) {
        let closed = idle.withLock { sessions -> [DecodeSession] in
            let closed = sessions.filter { $0.key.file.path == path }
            sessions.removeAll { $0.key.file.path == path }
            return closed
        }
        _ = closed
    }

    /// How many sessions wait in the pool.
    var count: Int { idle.withLock { $0.count } }
}
