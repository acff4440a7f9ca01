import Glibc
import MediaTree

/// The one place where errors become errno values for the kernel.
public enum ErrnoMapping {
    /// The errno that answers a request which failed with `error`.
    /// Anything this function does not know becomes EIO (and the caller logs it).
    public static func code(for error: any Error) -> Int32 {
        guard let error = error as? TreeError else { return EIO }
        switch error {
        case .notFound: return ENOENT
        case .notDirectory: return ENOTDIR
        case .isDirectory: return EISDIR
        case .readOnly: return EROFS
        case .io: return EIO
        case .noAttribute: return ENODATA
        case .unsupportedNamespace: return EOPNOTSUPP
        case .tooLarge: return ERANGE
        case .stale: return ESTALE
        }
    }
}
