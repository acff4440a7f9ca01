import Foundation
import Glibc
import MountLifecycle

/// A folder of one test's own under `base`, removed by `remove()` (never while anything is
/// mounted below it).
public final class TempFolder: Sendable {
    /// Where this test process makes its folders; every mount the tests make lies below it:
    /// `$MEDIAFS_TEST_FOLDER` (`make test` gives each run its own, to find what it left mounted),
    /// else `/tmp/mediafs-it/<pid>`.
    public static let base: String = {
        let given = ProcessInfo.processInfo.environment["MEDIAFS_TEST_FOLDER"] ?? ""
        return given.isEmpty ? "/tmp/mediafs-it/\(getpid())" : given
    }()

    public let path: String

    /// Makes `base/NAME.XXXXXX`.
    /// - Throws: `HarnessError` when the folder cannot be made.
    public init(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: Self.base, withIntermediateDirectories: true)
        // Open to all (a `mktemp -d` is 0700): the tests' users other than root (nobody, Samba's
        // guest) go through it.
        chmod(Self.base, 0o755)
        let safe = name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        var template = Array("\(Self.base)/\(String(safe)).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw HarnessError("mkdtemp under \(Self.base): \(String(cString: strerror(errno)))") }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `path/relative`.
    public func path(_ relative: String) -> String { path + "/" + relative }

    /// Makes `path/relative` (and its parents); its path.
    @discardableResult
    public func makeFolder(_ relative: String) throws -> String {
        let folder = path(relative)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A copy of the test media library at `path/relative` (`cp -a`: real copies, not links, so
    /// that nothing a test does can reach the shared library).
    /// - Throws: `HarnessError` when the library cannot be made or copied.
    @discardableResult
    public func copyOfLibrary(_ relative: String = "source") throws -> String {
        let library = try TestMedia.library().path
        let destination = path(relative)
        let copy = try Command.run(["cp", "-a", "--", library, destination], timeout: 60)
        guard copy.succeeded else { throw HarnessError("copying the library failed: \(copy)") }
        return destination
    }

    /// Removes the folder, unless something is still mounted below it (then it stays, and the
    /// final leak check reports the mount).
    public func remove() {
        guard KernelMounts.all().allSatisfy({ !($0.mountPoint == path || $0.mountPoint.hasPrefix(path + "/")) }) else { return }
        if ProcessInfo.processInfo.environment["MEDIAFS_TEST_KEEP"] != nil { return }
        _ = try? Command.run(["rm", "-rf", "--one-file-system", "--", path], timeout: 60)
    }
}
