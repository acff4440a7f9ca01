import Glibc
import GRDB
import Logging
import Synchronization

/// Whether the cache folder's disk takes what is written to it. A disk that fills during a mount
/// (or is over quota, remounted read-only, failing) must cost caching, never a file: a made picture
/// it refuses is served from memory, a track pass it refuses runs again in a private folder
/// (`TrackStore`). This says so in the log once per such spell, not per refused write, and says
/// when writes are taken again; and it lets a pass skip the cache folder while its file system
/// still has no room, instead of failing there part way first.
final class DiskRefusals: Sendable {
    /// Below this many bytes free, a file system that refused a write is taken as still full.
    static let roomNeeded: UInt64 = 1 << 20

    private let folder: String
    private let logger: Logger
    /// Whether the last write was refused.
    private let refusing = Atomic<Bool>(false)

    /// - Parameter folder: the cache folder, as the log names it.
    init(folder: String, logger: Logger) {
        self.folder = folder
        self.logger = logger
    }

    /// Whether `code` is the disk refusing a write, rather than a bug or a missing file: no space,
    /// over quota, a read-only file system, an I/O error.
    static func isRefusal(_ code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT || code == EROFS || code == EIO
    }

    /// The errno of a refusal (`isRefusal`) in `error`: a file's write (`CacheError.write`), or the
    /// database's (SQLite's full disk, read-only database or I/O error); nil for anything else.
    static func refusal(in error: any Error) -> Int32? {
        if let error = error as? CacheError { return error.refusal }
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode.primaryResultCode {
        case .SQLITE_FULL: return ENOSPC
        case .SQLITE_READONLY: return EROFS
        case .SQLITE_IOERR: return EIO
        default: return nil
        }
    }

    /// Takes note that writing `what` was refused with `code`; logged if it is the first refusal
    /// since writes were last taken.
    func refused(_ code: Int32, writing what: String) {
        guard !refusing.exchange(true, ordering: .relaxed) else { return }
        logger.warning("""
            the cache folder \(folder) refuses writes (\(String(cString: strerror(code))), writing \(what)): \
            until it takes them again, what is made is not kept there (pictures stay in memory, tracks go to a private folder)
            """)
    }

    /// Takes note that a write to `path` was taken; if writes were refused before and its file
    /// system has room again, the spell is over, and logged. (A small write that fits in the last
    /// bytes of a full disk does not end it: the log would say so at every picture.)
    func taken(_ path: String) {
        guard isRefusing, !hasNoRoom(path), refusing.exchange(false, ordering: .relaxed) else { return }
        logger.notice("the cache folder \(folder) takes writes again: caching resumes")
    }

    /// Whether writes were refused and the file system holding `path` still has no room for them
    /// or is read-only: a pass there would only fail again.
    func isStillRefusing(_ path: String) -> Bool {
        isRefusing && hasNoRoom(path)
    }

    private var isRefusing: Bool { refusing.load(ordering: .relaxed) }

    /// Whether the file system holding `path` is read-only or has less than `roomNeeded` free
    /// (`statvfs`); false where that cannot be told.
    private func hasNoRoom(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0 || UInt64(info.f_bavail) * UInt64(info.f_frsize) < Self.roomNeeded
    }
}
