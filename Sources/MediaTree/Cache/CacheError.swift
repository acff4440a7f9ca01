import Glibc

/// What can go wrong with the cache folder.
public enum CacheError: Error, CustomStringConvertible {
    /// The folder cannot be made or written.
    case unwritable(path: String, reason: String)
    /// The database failed its check.
    case damaged(path: String, reason: String)
    /// A file or folder in it could not be made, written or renamed; `code` is the errno.
    case write(path: String, code: Int32)

    public var description: String {
        switch self {
        case .unwritable(let path, let reason): return "cannot write the cache folder \(path): \(reason)"
        case .damaged(let path, let reason): return "\(path) is damaged: \(reason)"
        case .write(let path, let code): return "cannot write \(path): \(String(cString: strerror(code)))"
        }
    }

    /// The errno of a write the disk refused (`DiskRefusals.isRefusal`), if this is one.
    var refusal: Int32? {
        if case .write(_, let code) = self, DiskRefusals.isRefusal(code) { return code }
        return nil
    }
}
