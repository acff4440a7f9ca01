import MediaKit

/// What the virtual tree answers when it cannot give what was asked.
/// FuseBridge maps each case to an errno in one place.
public enum TreeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such name or node (ENOENT); also a node whose source has changed kind.
    case notFound
    case notDirectory
    case isDirectory
    /// Any attempt to change something (EROFS).
    case readOnly
    /// A source file or folder could not be read; `reason` is for the log line.
    case io(path: String, reason: String)
    /// What the media layer could not make or read for the entry at `path` (for the log line);
    /// FuseBridge answers each kind of failure with its own errno.
    case media(path: String, failure: MediaError)
    /// An extended attribute that is not there (ENODATA).
    case noAttribute
    /// An extended attribute in a namespace the tree keeps nothing in (EOPNOTSUPP): `security.`,
    /// `system.` (ACLs), `trusted.`.
    case unsupportedNamespace
    /// The caller's buffer is too small for the answer (ERANGE).
    case tooLarge
    /// A node that stands for a version of the source that is gone (ESTALE): a made file's number
    /// names the version it was made from, so the kernel, told this at an open, looks the name up
    /// again and finds the new version's node (see `MadeFile`).
    case stale

    public var description: String {
        switch self {
        case .io(let path, let reason): return "\(path): \(reason)"
        case .media(let path, let failure): return "\(path): \(failure)"
        case .notFound: return "no such entry"
        case .notDirectory: return "not a folder"
        case .isDirectory: return "a folder"
        case .readOnly: return "read-only"
        case .noAttribute: return "no such attribute"
        case .unsupportedNamespace: return "no attributes in that namespace"
        case .tooLarge: return "the answer is larger than the buffer"
        case .stale: return "a version of the source that is gone"
        }
    }
}
