import Dispatch
import Foundation
import Glibc

/// Track sets held out of eviction while read: pinned in this mount, locked for another mount
/// sharing the cache folder (`DiskCache+TrackSets`).
extension DiskCache {
    /// Holds the set `name` out of eviction until the pin is released (a reader has a file open).
    final class Pin: Sendable {
        private let cache: DiskCache
        private let name: String

        fileprivate init(cache: DiskCache, name: String) {
            self.cache = cache
            self.name = name
        }

        deinit { cache.unpin(name) }
    }

    func pin(_ name: String) -> Pin {
        pins.withLock { $0.counts[name, default: 0] += 1 }
        return Pin(cache: self, name: name)
    }

    fileprivate func unpin(_ name: String) {
        let evictNow = pins.withLock { pins -> Bool in
            let left = (pins.counts[name] ?? 1) - 1
            pins.counts[name] = left > 0 ? left : nil
            guard left <= 0, pins.skipped else { return false }
            pins.skipped = false
            return true
        }
        // Not on the releasing thread (libfuse's, answering a release): eviction writes the index
        // and may remove large folders.
        if evictNow { DispatchQueue.global(qos: .utility).async { [self] in evict() } }
    }

    /// Takes a shared `flock` on `descriptor`, a file of a set open for reading, which other mounts'
    /// evictions see (`isOpenElsewhere`); it goes with the descriptor's close. Best effort: where it
    /// cannot be had (an eviction trying the file this moment), the set is pinned in this mount only.
    static func lockForReading(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_SH | LOCK_NB)
    }

    /// Whether a file of the set `name` is open for reading (`lockForReading`), in another mount
    /// sharing the folder or in this one: a file whose exclusive lock cannot be taken.
    func isOpenElsewhere(_ name: String) -> Bool {
        let set = tracksFolder + "/" + name
        for group in (try? FileManager.default.contentsOfDirectory(atPath: set)) ?? [] {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: set + "/" + group)) ?? [] {
                // Read-write: over NFS, flock is a byte-range lock, whose exclusive kind needs it.
                let fd = open(set + "/" + group + "/" + file, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                guard fd >= 0 else { continue }
                defer { close(fd) }
                if flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK { return true }
            }
        }
        return false
    }
}
