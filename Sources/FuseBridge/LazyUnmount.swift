import Glibc

/// Detaches a mount now, even while files on it are open or its connection is dead.
enum LazyUnmount {
    /// As root with `umount2(MNT_DETACH)`; otherwise, or if that fails, with `fusermount3 -u -z`
    /// (which a user may run on mounts of their own).
    /// - Returns: nil once detached, else what failed.
    static func detach(_ mountpoint: String) -> String? {
        if geteuid() == 0 && umount2(mountpoint, Int32(MNT_DETACH)) == 0 { return nil }
        let status = ChildProcess.run("/bin/fusermount3", ["-u", "-z", mountpoint])
        return status == 0 ? nil : "fusermount3 -u -z \(mountpoint) failed with status \(status)"
    }
}
