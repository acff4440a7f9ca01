import Foundation
import Glibc

extension MountWatchdog {
    /// How a watch ended.
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// When the daemon ended, its mount was no longer on the mount point (unmounted as usual,
        /// or by libfuse's helper): nothing to do.
        case gone
        /// The mount was dead (the connection answered with `errno`, ENOTCONN or ECONNABORTED)
        /// and was detached.
        case detached(errno: Int32)
        /// The mount was dead but could not be detached.
        case detachFailed(String)
        /// Another mount covers ours on the mount point, so ours cannot be reached by its path.
        case covered
        /// The connection still answered when the bound passed.
        case stillAnswering

        /// Whether the mount is known not to be left dead.
        public var succeeded: Bool {
            switch self {
            case .gone, .detached: true
            case .detachFailed, .covered, .stillAnswering: false
            }
        }

        public var description: String {
            switch self {
            case .gone: "the mount was already gone"
            case .detached(let code): "the mount was dead (\(String(cString: strerror(code)))): detached it"
            case .detachFailed(let why): "the mount is dead and could not be detached: \(why)"
            case .covered: "the mount is dead but covered by another mount: left alone"
            case .stillAnswering: "the mount still answered \(MountWatchdog.bound) s after the daemon ended: left alone"
            }
        }
    }

    /// Waits until `daemonPipe` reaches end of file (the daemon has ended, whatever way), then
    /// removes the mount of `device` ("major:minor") and type `fileSystemType` (`fuse.mediafs`)
    /// on `mountpoint` if it was left dead.
    ///
    /// For up to `bound` seconds: if mountinfo no longer shows that mount on top of `mountpoint`
    /// (unmounted, or another mount is there now), there is nothing to do; this never unmounts
    /// anything else. Otherwise the connection is asked with `statvfs` (statfs(2), FUSE_STATFS),
    /// which always reaches it, where a `stat` may be answered from attributes the kernel still
    /// caches: ENOTCONN or ECONNABORTED means it is dead, and the mount is detached; an answer
    /// means the kernel is still tearing the connection down, so it looks again 50 ms later.
    ///
    /// A probe waits while the connection is up; if something else still held /dev/fuse it would
    /// wait forever, so once the daemon has ended SIGALRM (left at its default) ends this process
    /// a few seconds after the bound in any case.
    public static func watch(daemonPipe fd: Int32, device: String, fileSystemType: String, mountpoint: String) -> Outcome {
        waitForEndOfFile(fd)
        alarm(UInt32(bound) + 5)
        let deadline = Date(timeIntervalSinceNow: bound)
        while true {
            let entries = KernelMounts.entries(at: mountpoint)
            guard let ours = entries.lastIndex(where: { $0.device == device && $0.fileSystemType == fileSystemType })
            else { return .gone }
            guard ours == entries.count - 1 else { return .covered }
            var info = statvfs()
            if statvfs(mountpoint, &info) != 0 && (errno == ENOTCONN || errno == ECONNABORTED) {
                let code = errno
                if let failure = LazyUnmount.detach(mountpoint) {
                    // Someone else (libfuse's helper) may have removed it in the meantime.
                    let stillThere = KernelMounts.entries(at: mountpoint).contains { $0.device == device }
                    return stillThere ? .detachFailed(failure) : .gone
                }
                return .detached(errno: code)
            }
            if Date() >= deadline { return .stillAnswering }
            usleep(50_000)
        }
    }

    /// Reads `fd` until end of file or an error other than EINTR.
    private static func waitForEndOfFile(_ fd: Int32) {
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            return
        }
    }
}
