import Glibc

/// Why a mount could not be made, run or watched.
public enum FuseError: Error, Sendable, CustomStringConvertible {
    /// libfuse rejected the options (it has printed why on stderr).
    case badOptions([String])
    /// The kernel or fusermount3 refused the mount (libfuse has printed why on stderr).
    case mountFailed(mountpoint: String)
    /// The loop ended with an error.
    case loopFailed(code: Int32)
    /// A helper program could not be started (`code` is the errno posix_spawn gave).
    case cannotStart(program: String, code: Int32)
    /// The mount's watchdog could not be set up (see `MountWatchdog`).
    case watchdogUnavailable(String)

    public var description: String {
        switch self {
        case .badOptions(let arguments): return "libfuse rejected the options: \(arguments.joined(separator: " "))"
        case .mountFailed(let mountpoint): return "cannot mount on \(mountpoint)"
        case .loopFailed(let code): return "the FUSE loop ended with error \(code)"
        case .cannotStart(let program, let code): return "cannot start \(program): \(String(cString: strerror(code)))"
        case .watchdogUnavailable(let reason): return "no watchdog for the mount: \(reason)"
        }
    }
}
