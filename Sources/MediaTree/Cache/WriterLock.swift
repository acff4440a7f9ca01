import Foundation
import Glibc

/// The lock a process writing into the cache folder holds for as long as it writes there: an
/// exclusive `flock` on a file of its own, `<cache>/writers/<id>`. Its temporary files and pass
/// folders carry the id in their names (`.tmp-<id>-…`, `.pass-<id>-…`), so that whoever cleans the
/// folder up can tell a dead writer's leftovers from a live one's work: the kernel drops the lock
/// when the writer's last descriptor closes, which happens as it dies, before its parent reaps it
/// and whether it ends or is killed. A process id says less: `kill(pid, 0)` succeeds on a zombie,
/// on an unrelated process given the same number later, and tells nothing of a writer on another
/// machine sharing the folder over a network file system (where `flock` is a lock of the server).
///
/// The id is the process id and a random number, so that two caches opened by one process (as
/// tests do) and processes of two machines never share one.
final class WriterLock: Sendable {
    /// The folder of the lock files, in the cache folder.
    static let folderName = "writers"

    /// What this writer's names carry: `<pid>-<16 hex digits>`.
    let id: String
    /// `<cache>/writers`.
    private let folder: String
    private let path: String
    private let descriptor: Int32

    /// Makes this process's lock file in `<directory>/writers` and takes its lock.
    /// - Throws: `CacheError.write` when the file cannot be made or locked.
    init(directory: String) throws {
        let folder = directory + "/" + Self.folderName
        try PrivateFolder.make(folder)
        while true {
            let id = "\(getpid())-" + Checksum.hex(UInt64.random(in: 0...UInt64.max))
            let path = folder + "/" + id
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, PrivateFolder.fileMode)
            guard fd >= 0 else { throw CacheError.write(path: path, code: errno) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(fd)
                // A cleaner took the file for a dead writer's between its making and the lock, and
                // removes it: another id is tried.
                if code == EWOULDBLOCK { continue }
                unlink(path)
                throw CacheError.write(path: path, code: code)
            }
            // Or it did so and has removed it already: then the lock holds a name no one sees.
            guard Self.names(fd, path) else {
                close(fd)
                continue
            }
            self.id = id
            self.folder = folder
            self.path = path
            descriptor = fd
            return
        }
    }

    deinit {
        unlink(path)
        close(descriptor)
    }

    /// Whether the writer `id` is gone: it has no id (a name of an older mediafs), its lock file
    /// is missing, or its lock can be taken (then the file is removed). Never true of this writer:
    /// over NFS `flock` is a byte-range lock, which a process's own second descriptor would take,
    /// and closing that descriptor would drop.
    func isGone(_ id: String?) -> Bool {
        guard let id else { return true }
        guard id != self.id else { return false }
        let path = folder + "/" + id
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return errno == ENOENT }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        if Self.names(fd, path) { unlink(path) }
        return true
    }

    /// Removes the lock files of writers that are gone (their leftovers are removed by whoever
    /// finds them, by their names).
    func removeGone() {
        for id in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] { _ = isGone(id) }
    }

    /// The writer's id in a name `<prefix><id>-<random>`; nil when it has none (not a temporary's).
    static func writer(of name: String, prefix: String) -> String? {
        guard name.hasPrefix(prefix) else { return nil }
        let fields = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        return fields.count == 3 ? fields[0] + "-" + fields[1] : nil
    }

    /// A name for a temporary of this writer: `<prefix><id>-<16 hex digits>`.
    func temporaryName(_ prefix: String) -> String {
        prefix + id + "-" + Checksum.hex(UInt64.random(in: 0...UInt64.max))
    }

    /// Whether the open file `fd` is the one at `path`.
    private static func names(_ fd: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(fd, &opened) == 0 && stat(path, &named) == 0 && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }
}
