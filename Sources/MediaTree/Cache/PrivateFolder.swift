import Foundation
import Glibc
import Logging

/// The cache folder is its owner's alone: every folder in it `0700`, every file `0600`, whatever the
/// umask. It holds what was made from private videos (their pictures, titles and soundtracks), and
/// a cache folder others could read (`--cache-dir /var/cache/mediafs`) would give it to any local
/// user without the mount's permission checks; the freedesktop thumbnail specification asks the
/// same of thumbnail caches. Everything the cache writes is made with these modes (`make`,
/// `makeFile`, `folderMode`, `fileMode`); SQLite makes its `-wal` and `-shm` files with the
/// database's own mode. A folder made by an older mediafs is made private at mount (`tighten`).
enum PrivateFolder {
    static let folderMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Makes the folder `path` and the parents it lacks, each `0700` (a cache folder's parents that
    /// did not exist hold nothing but it).
    /// - Throws: `CacheError.unwritable` naming the folder that could not be made.
    static func make(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            try makeOne(prefix)
        }
    }

    /// Makes the folder `path` (its parent must exist) `0700`; nothing if it exists.
    /// - Throws: `CacheError.unwritable`.
    static func makeOne(_ path: String) throws {
        if mkdir(path, folderMode) == 0 {
            // mkdir's mode passes through the umask, which may take more than group and others'.
            chmod(path, folderMode)
        } else if errno != EEXIST {
            throw CacheError.unwritable(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Makes `path` an empty file `0600` if it does not exist (for a library that would make it
    /// with its own mode: SQLite's is `0644` less the umask).
    /// - Throws: `CacheError.unwritable`.
    static func makeFile(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        if fd >= 0 {
            fchmod(fd, fileMode)
            close(fd)
        } else if errno != EEXIST {
            throw CacheError.unwritable(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Takes group's and others' bits off the cache folder `path` and what mediafs keeps in it (the
    /// entries named `own`, and everything in them), if any has them (a folder made by an older
    /// mediafs, `0755` with files `0644`; or opened up by hand), with a line in the log. Cheap when
    /// it is private: a listing and a few `stat`s. A folder holding anything else is not mediafs's
    /// alone (`--cache-dir ~`, or /tmp): it keeps its mode, and so does what is not mediafs's.
    /// Links are not followed; what cannot be changed (another user's) is left, with a warning.
    static func tighten(_ path: String, own: Set<String>, logger: Logger) {
        let names = entries(of: path)
        let isOurs = names.allSatisfy(own.contains)
        let kept = names.filter(own.contains).map { path + "/" + $0 }
        guard (isOurs && isOpen(path)) || kept.contains(where: isOpen) else { return }
        var changed = 0
        var refused: [String] = []
        /// Makes `entry` private if it is open: a folder (alone), or a regular file.
        func tightenOne(_ entry: String, isFolder: Bool) {
            guard isOpen(entry) else { return }
            if chmod(entry, isFolder ? folderMode : fileMode) == 0 { changed += 1 } else { refused.append(entry) }
        }
        if isOurs { tightenOne(path, isFolder: true) }
        var stack = kept
        while let entry = stack.popLast() {
            var st = stat()
            guard lstat(entry, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                tightenOne(entry, isFolder: true)
                stack += entries(of: entry).map { entry + "/" + $0 }
            case S_IFREG:
                tightenOne(entry, isFolder: false)
            default:
                continue
            }
        }
        logger.notice("the cache folder \(path) was open to other users: made private (folders 0700, files 0600; \(changed) changed)")
        if let first = refused.first {
            logger.warning("the cache folder \(path) holds \(refused.count) entries open to other users that cannot be made private (another user's?), such as \(first)")
        }
    }

    /// Whether `path` gives group or others anything.
    private static func isOpen(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & 0o077 != 0
    }

    private static func entries(of folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }
}
