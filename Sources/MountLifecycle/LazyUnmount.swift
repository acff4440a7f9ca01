import Glibc

/// Detaches a mount now, even while files on it are open or its connection is dead.
enum LazyUnmount {
    /// As root with `umount2(MNT_DETACH)`; otherwise, or if that fails, with `fusermount3 -u -z`
    /// (which a user may run on mounts of their own).
    /// - Returns: nil once detached, else what failed.
    static func detach(_ mountpoint: String) -> String? {
        if geteuid() == 0 && umount2(mountpoint, Int32(MNT_DETACH)) == 0 { return nil }
        // It inherits standard input and every descriptor not close-on-exec of this process (the
        // daemon, whose /dev/fuse and watchdog pipe are close-on-exec, or the watchdog); its
        // output is discarded.
        var spawn = Spawn("/bin/fusermount3", ["-u", "-z", mountpoint])
        spawn.standardOutput = .null
        spawn.standardError = .null
        let status: Int32 = switch try? spawn.run() {
        case .exited(let code)?: code
        case .signalled?, nil: -1
        }
        return status == 0 ? nil : "fusermount3 -u -z \(mountpoint) failed with status \(status)"
    }
}
