import Foundation
import Glibc
import Testing

/// What the tests that really mount need from the machine, checked once per test process, so that
/// without it they are skipped with a message saying what is missing instead of failing (like
/// go-fuse's and sshfs's tests where /dev/fuse is absent).
///
/// Two environment variables force a requirement to count as missing, to see the skips on a
/// machine that has everything: `MEDIAFS_TEST_NO_FUSE=1` (as if /dev/fuse were missing) and
/// `MEDIAFS_TEST_NO_ROOT=1` (as if the tests did not run as root).
public enum MountRequirements {
    /// Why no FUSE mount can be made here (/dev/fuse missing or not openable, fusermount3
    /// missing), or nil when one can.
    public static let fuseMissing: String? = {
        if let forced = forced("MEDIAFS_TEST_NO_FUSE") {
            return "/dev/fuse is taken as missing (\(forced))"
        }
        var st = stat()
        guard stat("/dev/fuse", &st) == 0, st.st_mode & S_IFMT == S_IFCHR else {
            return "/dev/fuse is missing: load the fuse module (modprobe fuse) or give the container the device"
        }
        let fd = open("/dev/fuse", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            return "/dev/fuse cannot be opened (\(String(cString: strerror(errno)))): run as root or as a member of its group"
        }
        close(fd)
        guard (try? ChildProcess.locate("fusermount3")) != nil else {
            return "fusermount3 is missing (Debian: apt-get install fuse3)"
        }
        return nil
    }()

    /// Why tests that need root cannot run (not root), or nil when they can.
    public static let rootMissing: String? = {
        if let forced = forced("MEDIAFS_TEST_NO_ROOT") { return "taken as not root (\(forced))" }
        return geteuid() == 0 ? nil : "not root"
    }()

    /// "NAME=VALUE is set" when the variable `name` is set and not empty or "0".
    private static func forced(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty, value != "0" else { return nil }
        return "\(name)=\(value) is set"
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test (or every test of the suite) only where FUSE mounts can be made; otherwise
    /// it is skipped with what is missing.
    public static var mounts: Self {
        .enabled(if: MountRequirements.fuseMissing == nil,
                 Comment(rawValue: "needs FUSE: \(MountRequirements.fuseMissing ?? "")"))
    }

    /// Runs the test only as root; otherwise it is skipped with "needs root for `what`".
    public static func needsRoot(for what: String) -> Self {
        .enabled(if: MountRequirements.rootMissing == nil,
                 Comment(rawValue: "needs root for \(what): \(MountRequirements.rootMissing ?? "")"))
    }
}
