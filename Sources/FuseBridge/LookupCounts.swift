import Synchronization

/// How many times the kernel holds each inode number: one more per entry replied, fewer on forget.
///
/// The tree keeps every number stable for the life of the mount whatever the count; the counts say
/// which nodes the kernel still references (and, once the tree learns to drop nodes, which it may drop).
final class LookupCounts: Sendable {
    private let counts = Mutex<[UInt64: UInt64]>([:])

    func add(_ inode: UInt64) {
        counts.withLock { $0[inode, default: 0] += 1 }
    }

    /// Takes `count` lookups off `inode`; the entry goes when none remain.
    func forget(_ inode: UInt64, count: UInt64) {
        counts.withLock { counts in
            guard let held = counts[inode] else { return }
            if held <= count { counts[inode] = nil } else { counts[inode] = held - count }
        }
    }

    /// The number of lookups the kernel holds on `inode`.
    func count(of inode: UInt64) -> UInt64 { counts.withLock { $0[inode] ?? 0 } }

    /// How many inodes the kernel holds at all.
    var referenced: Int { counts.withLock { $0.count } }
}
