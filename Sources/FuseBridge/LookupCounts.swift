import MediaTree
import Synchronization

/// How many times the kernel holds each inode number: one more per entry replied, fewer on forget.
///
/// When the last lookup of a number is forgotten, the tree drops the number (`NumberOwner.drop`),
/// so the tree's table stays as large as what the kernel caches. Numbers a listing gave that the
/// kernel never counted (track files, listed by name only) stay in the table: as many as the
/// nodes listed.
///
/// Counting and dropping share one lock, and a number is counted only while the tree still has it
/// (`add` answers false otherwise), so a reply never gives the kernel a number just dropped,
/// however a lookup and a forget of the same node interleave; the caller asks the tree again,
/// which numbers the node again (a node's number is a hash of what it stands for: the same one).
final class LookupCounts: Sendable {
    private let counts = Mutex(NumberCounts())
    private let owner: any NumberOwner

    init(owner: any NumberOwner) {
        self.owner = owner
    }

    /// Counts one more lookup of `inode`, if the tree still has that number.
    /// - Returns: false where the number was dropped: it must not be given to the kernel.
    func add(_ inode: UInt64) -> Bool {
        counts.withLock { counts in
            // A number the kernel holds is numbered: it is dropped only here, once none is held.
            if counts.increment(inode) { return true }
            guard owner.isNumbered(inode) else { return false }
            counts.set(inode, to: 1)
            return true
        }
    }

    /// Takes `count` lookups off `inode`; when none remain, the tree drops the number.
    func forget(_ inode: UInt64, count: UInt64) {
        counts.withLock { counts in
            guard let held = counts[inode] else { return }
            if held > count {
                counts.set(inode, to: held - count)
            } else {
                counts.set(inode, to: 0)
                owner.drop(inode)
            }
        }
    }

    /// The number of lookups the kernel holds on `inode`.
    func count(of inode: UInt64) -> UInt64 { counts.withLock { $0[inode] ?? 0 } }

    /// How many inodes the kernel holds at all.
    var referenced: Int { counts.withLock { $0.count } }
}

/// Who gives inode numbers out and takes them back: the tree (`MediaTree`), or a stand-in in tests.
/// Called under `LookupCounts`' lock, so it must not call back into it.
protocol NumberOwner: Sendable {
    /// Whether `inode` still names a node.
    func isNumbered(_ inode: UInt64) -> Bool
    /// Takes `inode` back (never the root) until the node is seen and numbered again.
    func drop(_ inode: UInt64)
}

extension MediaTree: NumberOwner {}
