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

    /// Opens connection `number`'s abort file for writing (close-on-exec); -1 where it cannot.
    /// Writing "1" to it later aborts that very connection, or nothing once it has ended.
    public static func openAbortFile(_ number: Int) -> Int32 {
        guard ensureMounted() else { return -1 }
        return open("\(root)/\(number)/abort", O_WRONLY | O_CLOEXEC)
    }
}
