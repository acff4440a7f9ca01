import Dispatch
import Synchronization
import SystemPackage

/// Files the prober opened, kept open a few seconds for the work that usually follows a probe (a
/// track pass, a first thumbnail), so that it does not open and analyse the file again: the
/// analysis (`avformat_find_stream_info`) decodes frames of every stream, the dearest part of a
/// probe.
///
/// A kept file is handed out once, and only while `stat` of its path still shows the version that
/// was opened (device, inode, size, modification time). The prober reads the header and the stream
/// information and nothing else, so a file taken from here is where a fresh open would leave it
/// (the packets read for the analysis still waiting to be read), and what is made from it is the
/// same, byte for byte. At most `capacity` files are kept, each at most `lifetime` seconds: an
/// open file holds a removed source's disk space, and its analysis buffers memory.
///
/// Each `LocalMediaService` has its own: its probes keep, its passes and decode sessions take.
final class ProbedInputs: Sendable {
    let capacity: Int
    let lifetime: Double

    /// `@unchecked`: an `InputFile` is no value a lock could guard; only the thread that takes
    /// it uses the file, and until then nothing does.
    private struct Kept: @unchecked Sendable {
        let file: InputFile
        let version: FileIdentity
        let until: UInt64
    }

    /// Oldest first.
    private let kept = Mutex<[Kept]>([])

    init(capacity: Int = 2, lifetime: Double = 5) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Keeps `file`, opened as `version` of its path, for `take(path:)`; the oldest file kept goes
    /// if there are `capacity` already.
    func keep(_ file: InputFile, version: FileIdentity) {
        let entry = Kept(file: file, version: version, until: Deadline.now() &+ UInt64(lifetime * 1e9))
        // The files dropped are closed as the returned array goes, outside the lock.
        _ = kept.withLock { kept -> [Kept] in
            var dropped = kept.filter { $0.file.path == file.path }
            kept.removeAll { $0.file.path == file.path }
            kept.append(entry)
            if kept.count > capacity {
                dropped += kept.prefix(kept.count - capacity)
                kept.removeFirst(kept.count - capacity)
            }
            return dropped
        }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + lifetime + 0.1) { [self] in
            dropExpired()
        }
    }

    /// The file kept for `path`, if there is one, it is not older than `lifetime`, and the path
    /// still names the version it was opened as. Either way nothing is kept for `path` afterwards.
    func take(path: FilePath) -> InputFile? {
        guard let entry = remove(path: path) else { return nil }
        guard Deadline.now() <= entry.until, FileIdentity(path: path) == entry.version else { return nil }
        return entry.file
    }

    /// Closes the file kept for `path`, if there is one.
    func forget(path: FilePath) {
        _ = remove(path: path)
    }

    /// Stops keeping the file for `path`; closed when the caller lets the entry go, outside the lock.
    private func remove(path: FilePath) -> Kept? {
        kept.withLock { kept in
            kept.firstIndex { $0.file.path == path }.map { kept.remove(at: $0) }
        }
    }

    /// How many files are kept now.
    var count: Int { kept.withLock { $0.count } }

    /// Whether a file is kept for `path` (not taking it).
    func isKept(path: FilePath) -> Bool { kept.withLock { $0.contains { $0.file.path == path } } }

    private func dropExpired() {
        let now = Deadline.now()
        _ = kept.withLock { kept -> [Kept] in  // closed outside the lock, as in `keep`
            let expired = kept.filter { $0.until < now }
            kept.removeAll { $0.until < now }
            return expired
        }
    }
}

extension InputFile {
    /// The file a probe just opened for `path`, taken from `probed` with a new deadline of
    /// `timeout` seconds; else `path` opened now, within `timeout`.
    /// - Throws: as `init(path:timeout:)`.
    static func open(_ path: FilePath, timeout: Double, takingFrom probed: ProbedInputs?) throws -> InputFile {
        if let taken = probed?.take(path: path) {
            taken.deadline.restart(seconds: timeout)
            return taken
        }
        return try InputFile(path: path, timeout: timeout)
    }
}
