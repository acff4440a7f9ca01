import Glibc
import MediaKit
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
        case .media(_, let failure): return code(for: failure)
        case .noAttribute: return ENODATA
        case .unsupportedNamespace: return EOPNOTSUPP
        case .tooLarge: return ERANGE
        case .stale: return ESTALE
        }
    }

    /// The errno for what the media layer could not make or read: EIO for what the file's bytes
    /// do not give (damaged, not media, a read that failed, no such frame), and where the cause has
    /// an errno of its own, that one.
    static func code(for failure: MediaError) -> Int32 {
        switch failure {
        case .notMedia, .library, .damaged, .imageFailed, .unsupported, .noFrame, .trackUnavailable, .output, .unreadable:
            return EIO
        case .noVideoStream: return ENOENT
        // The work has a bound and passed it: the answer may come at another try.
        case .timedOut: return ETIMEDOUT
        // The file is no longer the version asked for: the kernel looks the name up again.
        case .sourceChanged: return ESTALE
        case .cancelled: return ECANCELED
        // The source itself refused (gone, or not ours to read): said as it was said to us.
        case .io(_, let code): return [ENOENT, EACCES, EPERM].contains(code) ? code : EIO
        }
    }

    /// Whether a request that failed with `error` is worth a line in the log: something could not
    /// be read or made (not a name that is not there, nor a refused write).
    static func isLogged(_ error: any Error) -> Bool {
        guard let error = error as? TreeError else { return true }
        switch error {
        case .io, .media: return true
        default: return false
        }
    }
}
