import Foundation
import Glibc
import MountLifecycle

/// A small file system of a test's own (`mount -t tmpfs -o size=…`), to fill and free while a
/// mount keeps its cache folder on it, or to make read-only. Needs root; unmounted by `remove()`
/// (call it in a `defer`), whatever the test did, and by `deinit` as a last resort.
public final class SmallDisk: @unchecked Sendable {
    /// The folder it is mounted on.
    public let path: String
    private var mounted = true

    /// Mounts a tmpfs of `size` (as `mount` takes it: `4m`) on `path`, made if missing.
    /// - Parameter readOnly: mounted read-only (nothing can be written to it).
    /// - Throws: `HarnessError` when it cannot be mounted.
    public init(_ path: String, size: String, readOnly: Bool = false) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let options = "size=\(size),mode=0700" + (readOnly ? ",ro" : "")
        let result = try Command.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path])
        guard result.succeeded else { throw HarnessError("cannot mount a tmpfs on \(path): \(result)") }
    }

    deinit { remove() }

    /// Bytes free.
    public var free: Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Fills it with a file `filler` until `leaving` bytes are free (none by default).
    /// - Throws: `HarnessError` when the file cannot be made.
    public func fill(leaving: Int64 = 0) throws {
        let result = try Command.run(["fallocate", "-l", "\(max(0, free - leaving))", path + "/filler"])
        guard result.succeeded else { throw HarnessError("cannot fill \(path): \(result)") }
    }

    /// Removes what `fill` wrote.
    public func empty() {
        unlink(path + "/filler")
    }

    /// Unmounts it (lazily if busy). Safe to call more than once.
    public func remove() {
        guard mounted else { return }
        mounted = false
        if (try? Command.run(["umount", path]))?.succeeded != true {
            _ = try? Command.run(["umount", "-l", path])
        }
    }
}
