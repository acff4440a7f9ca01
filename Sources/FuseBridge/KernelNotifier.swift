import CFuse
import Glibc
import Logging
import MediaTree
import Synchronization

/// Tells the kernel what source changes made stale, so that it asks again instead of serving what
/// it cached: a name (`fuse_lowlevel_notify_expire_entry`, expire only) or a node's attributes and
/// pages (`fuse_lowlevel_notify_inval_inode`, the whole file).
///
/// Called from the tree's source watcher, never from a request handler: the kernel may send
/// requests of its own while it invalidates (it waits for a lookup under way in the same folder),
/// and those must find every thread they need free. Only nodes the kernel holds (a lookup count,
/// or the root) are told; ENOENT (the kernel had dropped it already) is no error. Nothing is sent
/// before `attach` or after `detach`: the session pointer is used only under the lock, and
/// `detach` waits for notifications under way.
public final class KernelNotifier: SourceChangeSink {
    private let session = Mutex<SessionPointer?>(nil)
    private let numbered: NumberedTree
    private let logger: Logger
    private let sent = Atomic<Int>(0)
    private let expiryUnsupported = Atomic<Bool>(false)

    init(numbered: NumberedTree, logger: Logger) {
        self.numbered = numbered
        self.logger = logger
    }

    /// Notifications delivered since mount (the kernel held what they named).
    public var delivered: Int { sent.load(ordering: .relaxed) }

    func attach(_ pointer: OpaquePointer) {
        session.withLock { $0 = SessionPointer(pointer) }
    }

    /// Ends notifications; once this returns, none is under way and none follows.
    func detach() {
        session.withLock { $0 = nil }
    }

    /// Tells the kernel what `changes` made stale (`NumberedTree.invalidations(after:)`).
    public func sourceChanged(_ changes: SourceChanges) {
        let stale = numbered.invalidations(after: changes)
        if !stale.isEmpty { invalidate(stale) }
    }

    func invalidate(_ invalidations: [Invalidation]) {
        session.withLock { session in
            guard let session = session?.pointer else { return }
            for invalidation in invalidations {
                let result: Int32
                switch invalidation {
                case .entry(let parent, let name):
                    guard isHeld(parent) else { continue }
                    result = notifyEntry(session, parent: parent, name: name)
                case .inode(let inode):
                    guard isHeld(inode) else { continue }
                    result = fuse_lowlevel_notify_inval_inode(session, fuse_ino_t(inode), 0, 0)
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
    /// still there keeps its dentry and anything mounted below it (which `inval_entry` would
    /// detach). A name that is gone is dropped by that lookup. Kernels before 6.2 cannot expire only
    /// (ENOSYS): then the name is invalidated.
    private func notifyEntry(_ session: OpaquePointer, parent: UInt64, name: Name) -> Int32 {
        name.withCString { text in
            let length = name.bytes.count
            if !expiryUnsupported.load(ordering: .relaxed) {
                let result = fuse_lowlevel_notify_expire_entry(session, fuse_ino_t(parent), text, length, FUSE_LL_EXPIRE_ONLY)
                if result != -ENOSYS { return result }
                expiryUnsupported.store(true, ordering: .relaxed)
            }
            return fuse_lowlevel_notify_inval_entry(session, fuse_ino_t(parent), text, length)
        }
    }

    private func isHeld(_ inode: UInt64) -> Bool {
        numbered.isHeld(inode)
    }
}

/// The session pointer, kept under the notifier's lock (`@unchecked`: a C pointer, which libfuse
/// lets any thread notify through).
private struct SessionPointer: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
