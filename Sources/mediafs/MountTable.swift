import MountLifecycle

/// What /proc/self/mountinfo says about mount points (read by `KernelMounts`).
enum MountTable {
    /// Whether `path` (absolute, resolved) is a mount point now.
    static func isMountPoint(_ path: String) -> Bool {
        KernelMounts.isMountPoint(path)
    }

    /// The file system type (`fuse.mediafs`, `ext4`, …) of the mount holding `path` (absolute,
    /// resolved): the last-mounted of the longest mount points that contain it.
    static func fileSystemType(containing path: String) -> String? {
        mount(containing: path)?.fileSystemType
    }

    /// The mount holding `path` (absolute, resolved): the last-mounted of the longest mount points
    /// that contain it.
    static func mount(containing path: String) -> KernelMounts.Entry? {
        var best: KernelMounts.Entry?
        for entry in KernelMounts.all() {
            let point = entry.mountPoint
            let contains = point == "/" || path == point || path.hasPrefix(point + "/")
            if contains && point.count >= (best?.mountPoint.count ?? -1) { best = entry }
        }
        return best
    }
}
