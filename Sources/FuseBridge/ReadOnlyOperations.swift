import CFuse
import Glibc

/// Every operation that would change something answers EROFS. The mount is also `ro`, so the kernel
/// refuses most of these itself; these answers hold for any that reach the daemon.
enum ReadOnlyOperations {
    static func install(in ops: inout fuse_lowlevel_ops) {
        ops.setattr = { req, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.mknod = { req, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.mkdir = { req, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.unlink = { req, _, _ in Request(req!).fail(errno: EROFS) }
        ops.rmdir = { req, _, _ in Request(req!).fail(errno: EROFS) }
        ops.symlink = { req, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.rename = { req, _, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.link = { req, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.write = { req, _, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.write_buf = { req, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.create = { req, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.setxattr = { req, _, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.removexattr = { req, _, _ in Request(req!).fail(errno: EROFS) }
        ops.fallocate = { req, _, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.copy_file_range = { req, _, _, _, _, _, _, _, _ in Request(req!).fail(errno: EROFS) }
        ops.fsync = { req, _, _, _ in Request(req!).replyOK() }
        ops.fsyncdir = { req, _, _, _ in Request(req!).replyOK() }
    }
}
