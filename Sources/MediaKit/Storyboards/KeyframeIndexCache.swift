import SystemPackage
import Synchronization

/// The keyframe indexes of the files whose storyboards or contact sheets were made last, by file
/// version and stream, so that the sheets of one storyboard (and its contact sheet) demux the
/// file once. A new version of a file (another size or modification time) misses, so an index
/// is never stale. Least recently used first out, past `capacity`. Safe from many threads; two
/// threads asking at once for an index not yet kept both scan (the second result is kept).
final class KeyframeIndexCache: Sendable {
    struct Key: Hashable, Sendable {
        var file: MediaFile
        var streamIndex: Int
    }

    let capacity: Int
    /// Least recently used first.
    private let entries = Mutex<[(key: Key, index: KeyframeIndex)]>([])

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
    }

    /// The index kept for `key`, if any (and marks it used).
    func index(for key: Key) -> KeyframeIndex? {
        entries.withLock { entries in
            guard let at = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: at)
            entries.append(entry)
            return entry.index
        }
    }

    /// Keeps `index` for `key`, dropping the indexes of other versions of the same path and the
    /// least recently used beyond `capacity`.
    func keep(_ index: KeyframeIndex, for key: Key) {
        entries.withLock { entries in
            entries.removeAll { $0.key.file.path == key.file.path && $0.key.streamIndex == key.streamIndex }
            entries.append((key, index))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    /// Drops every index of the file at `path`.
    func forget(path: FilePath) {
        entries.withLock { $0.removeAll { $0.key.file.path == path } }
    }
}
