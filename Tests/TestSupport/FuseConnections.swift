import Foundation
import Glibc
import MountLifecycle

/// The FUSE control filesystem (fusectl): the way out of a connection that no longer answers.
public enum FuseConnections {
    public static let root = "/sys/fs/fuse/connections"

    /// Mounts fusectl on /sys/fs/fuse/connections unless it is there already.
    /// - Returns: whether it is mounted now.
    @discardableResult
    public static func ensureMounted() -> Bool {
        if KernelMounts.entries(at: root).contains(where: { $0.fileSystemType == "fusectl" }) { return true }
        _ = try? Command.run(["mount", "-t", "fusectl", "fusectl", root], timeout: 10)
        return KernelMounts.entries(at: root).contains { $0.fileSystemType == "fusectl" }
    }

    /// Aborts connection `number`: every request waiting on it fails at once (ENOTCONN) and the
    /// daemon's /dev/fuse reads end.
    /// - Returns: whether the abort file was written.
    @discardableResult
    public static func abort(_ number: Int) -> Bool {
        guard ensureMounted() else { return false }
        let file = "\(root)/\(number)/abort"
        let fd = open(file, O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "1", 1) == 1
    }

    /// Whether connection `number` still exists.
    public static func exists(_ number: Int) -> Bool {
        ensureMounted() && access("\(root)/\(number)", F_OK) == 0
    }
}
