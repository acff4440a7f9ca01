import CFuse
import Glibc
import MediaTree

/// The kernel's end of change notifications: what `KernelNotifier` calls to make the kernel forget
/// a name or a node (go-fuse's `ServerCallbacks`). `SessionNotifications` calls libfuse on a
/// mounted session; a test gives a recorder of its own, and so checks the notifier without a mount.
///
/// Each call returns what libfuse's does: 0 when the kernel was told, else a negated errno
/// (`-ENOENT`: it held nothing by that name or number; `-ENOSYS`: it cannot do that; `-ENODEV`,
/// `-EBADF`: the connection is gone). Calls may come from any thread, never from a request's.
public protocol KernelNotifications: Sendable {
    /// Marks the name `name` in the folder numbered `parent` expired: its next use looks it up
    /// again, and a dentry still there keeps what is mounted below it. The corresponding C function
    /// is fuse_lowlevel_notify_expire_entry with FUSE_LL_EXPIRE_ONLY (Linux 6.2 and later).
    func expireEntry(parent: UInt64, name: Name) -> Int32

    /// Drops the name `name` in the folder numbered `parent`. The corresponding C function is
    /// fuse_lowlevel_notify_inval_entry.
    func invalidateEntry(parent: UInt64, name: Name) -> Int32

    /// Drops what the kernel keeps of the node numbered `inode`: its attributes and every cached
    /// page. The corresponding C function is fuse_lowlevel_notify_inval_inode (offset 0, length 0).
    func invalidateInode(_ inode: UInt64) -> Int32
}

/// The notifications of a mounted libfuse session. `@unchecked`: a C pointer, which libfuse lets
/// any thread notify through; `KernelNotifier` stops using it before the session is destroyed.
struct SessionNotifications: KernelNotifications, @unchecked Sendable {
    let session: OpaquePointer

    func expireEntry(parent: UInt64, name: Name) -> Int32 {
        name.withCString { text in
            fuse_lowlevel_notify_expire_entry(session, fuse_ino_t(parent), text, name.bytes.count, FUSE_LL_EXPIRE_ONLY)
        }
    }

    func invalidateEntry(parent: UInt64, name: Name) -> Int32 {
        name.withCString { fuse_lowlevel_notify_inval_entry(session, fuse_ino_t(parent), $0, name.bytes.count) }
    }

    func invalidateInode(_ inode: UInt64) -> Int32 {
        fuse_lowlevel_notify_inval_inode(session, fuse_ino_t(inode), 0, 0)
    }
}
