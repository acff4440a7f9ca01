import Glibc
import Logging
import MediaTree
import Synchronization

/// Tells the kernel what source changes made stale, so that it asks again instead of serving what
/// it cached: a name (expired only, else dropped) or a node's attributes and pages (the whole file),
/// through `KernelNotifications`: libfuse's once a session is mounted, a recorder in tests.
///
/// Called from the tree's source watcher, never from a request handler: the kernel may send
/// requests of its own while it invalidates (it waits for a lookup under way in the same folder),
/// and those must find every thread they need free. Only nodes the kernel holds (a lookup count,
/// or the root) are told; ENOENT (the kernel had dropped it already) is no error. Nothing is sent
/// before `attach` or after `detach`: the notifications are used only under the lock, and
/// `detach` waits for those under way.
public final class KernelNotifier: SourceChangeSink {
    private let kernel = Mutex<(any KernelNotifications)?>(nil)
    private let numbered: NumberedTree
    private let logger: Logger
    private let sent = Atomic<Int>(0)
    private let expiryUnsupported = Atomic<Bool>(false)

    /// A notifier of what `numbered` holds; it tells nothing until `attach`.
    public init(numbered: NumberedTree, logger: Logger) {
        self.numbered = numbered
        self.logger = logger
    }

    /// Notifications delivered (the kernel held what they named).
    public var delivered: Int { sent.load(ordering: .relaxed) }

    /// From now on, tells `kernel` (`FuseSession` attaches its session once mounted).
    public func attach(_ kernel: any KernelNotifications) {
        self.kernel.withLock { $0 = kernel }
    }

    /// Ends notifications; once this returns, none is under way and none follows.
    public func detach() {
        kernel.withLock { $0 = nil }
    }

    /// Tells the kernel what `changes` made stale (`NumberedTree.invalidations(after:)`).
    public func sourceChanged(_ changes: SourceChanges) {
        let stale = numbered.invalidations(after: changes)
        if !stale.isEmpty { invalidate(stale) }
    }

    func invalidate(_ invalidations: [Invalidation]) {
        kernel.withLock { kernel in
            guard let kernel else { return }
            for invalidation in invalidations {
                let result: Int32
                switch invalidation {
                case .entry(let parent, let name):
                    guard numbered.isHeld(parent) else { continue }
                    result = notifyEntry(kernel, parent: parent, name: name)
                case .inode(let inode):
                    guard numbered.isHeld(inode) else { continue }
                    result = kernel.invalidateInode(inode)
                }
                switch result {
                case 0: sent.add(1, ordering: .relaxed)
                case -ENOENT: break
                case -ENODEV, -EBADF: return  // the connection is gone: unmounting
                default: logger.debug("kernel notification \(invalidation) failed: \(String(cString: strerror(-result)))")
                }
            }
        }
    }

    /// Expires the name rather than dropping it: the next use asks again (a lookup), and a name
    /// still there keeps its dentry and anything mounted below it (which dropping it would
    /// detach). A name that is gone is dropped by that lookup. Kernels before 6.2 cannot expire only
    /// (ENOSYS): then, and from then on, the name is dropped.
    private func notifyEntry(_ kernel: any KernelNotifications, parent: UInt64, name: Name) -> Int32 {
        if !expiryUnsupported.load(ordering: .relaxed) {
            let result = kernel.expireEntry(parent: parent, name: name)
            if result != -ENOSYS { return result }
            expiryUnsupported.store(true, ordering: .relaxed)
        }
        return kernel.invalidateEntry(parent: parent, name: name)
    }
}
