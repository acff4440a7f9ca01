/// Why a mount could not be made or run.
public enum FuseError: Error, Sendable, CustomStringConvertible {
    /// libfuse rejected the options (it has printed why on stderr).
    case badOptions([String])
    /// The kernel or fusermount3 refused the mount (libfuse has printed why on stderr).
    case mountFailed(mountpoint: String)
    /// The loop ended with an error.
    case loopFailed(code: Int32)

    public var description: String {
        switch self {
        case .badOptions(let arguments): return "libfuse rejected the options: \(arguments.joined(separator: " "))"
        case .mountFailed(let mountpoint): return "cannot mount on \(mountpoint)"
        case .loopFailed(let code): return "the FUSE loop ended with error \(code)"
        }
    }
}
