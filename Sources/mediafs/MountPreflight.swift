import Foundation
import Glibc

/// The checks made before mounting, each failing with a message that says what to do.
enum MountPreflight {
    /// The resolved source and mount point paths.
    /// - Throws: `CLIError` of kind `.source` for a missing or unreadable source, `.mountPoint` for
    ///   a missing, non-empty or mounted mount point or one inside the source's reach, `.fuseDevice`
    ///   for no usable /dev/fuse.
    static func check(source: String, mountpoint: String) throws -> (source: String, mountpoint: String) {
        var st = stat()
        guard stat(source, &st) == 0 else {
            throw CLIError(.source, "source folder '\(source)' does not exist (\(String(cString: strerror(errno))))")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw CLIError(.source, "source '\(source)' is not a folder") }
        // Refused now rather than shown as an empty mount whose every listing fails.
        guard access(source, R_OK | X_OK) == 0 else {
            throw CLIError(.source, "source folder '\(source)' cannot be read (\(String(cString: strerror(errno))))")
        }

        guard stat(mountpoint, &st) == 0 else {
            if errno == ENOTCONN {
                throw CLIError(.mountPoint, "'\(mountpoint)' is a dead mount (its daemon is gone); remove it with: fusermount3 -u \(mountpoint)")
            }
            throw CLIError(.mountPoint, "mount point '\(mountpoint)' does not exist (\(String(cString: strerror(errno)))); create it with: mkdir -p \(mountpoint)")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw CLIError(.mountPoint, "mount point '\(mountpoint)' is not a folder") }
        let resolvedSource = resolve(source)
        let resolvedMountpoint = resolve(mountpoint)
        if MountTable.isMountPoint(resolvedMountpoint) {
            throw CLIError(.mountPoint, "'\(resolvedMountpoint)' is already a mount point; unmount it first (mediafs unmount \(resolvedMountpoint))")
        }
        if let first = try? FileManager.default.contentsOfDirectory(atPath: resolvedMountpoint).first {
            throw CLIError(.mountPoint, "mount point '\(resolvedMountpoint)' is not empty (it holds '\(first)'); mount on an empty folder")
        }
        if resolvedSource == resolvedMountpoint || resolvedSource.hasPrefix(resolvedMountpoint + "/")
            || resolvedMountpoint.hasPrefix(resolvedSource + "/") {
            throw CLIError(.mountPoint, "the source and the mount point must not contain each other ('\(resolvedSource)', '\(resolvedMountpoint)')")
        }
        try checkFuseDevice()
        return (resolvedSource, resolvedMountpoint)
    }

    /// /dev/fuse must be a character device this process can open for reading and writing.
    private static func checkFuseDevice() throws {
        let advice = "load the fuse module (modprobe fuse), or in a container pass the device through (--device /dev/fuse)"
        var st = stat()
        guard stat("/dev/fuse", &st) == 0 else {
            throw CLIError(.fuseDevice, "/dev/fuse is not available (\(String(cString: strerror(errno)))): \(advice)")
        }
        guard st.st_mode & S_IFMT == S_IFCHR else {
            throw CLIError(.fuseDevice, "/dev/fuse is not the FUSE device (not a character device): \(advice)")
        }
        let fd = open("/dev/fuse", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError(.fuseDevice, "/dev/fuse cannot be opened (\(String(cString: strerror(errno)))): \(advice)")
        }
        close(fd)
    }

    /// `path` made absolute against the current folder (the file need not exist).
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    static func resolve(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
