/// What the virtual tree answers when it cannot give what was asked.
/// FuseBridge maps each case to an errno in one place.
public enum TreeError: Error, Sendable, Equatable {
    /// No such name or node (ENOENT); also a node whose source has changed kind.
    case notFound
    case notDirectory
    case isDirectory
    /// Any attempt to change something (EROFS).
    case readOnly
    /// A source file or folder could not be read; `reason` is for the log line.
    case io(path: String, reason: String)
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
}
