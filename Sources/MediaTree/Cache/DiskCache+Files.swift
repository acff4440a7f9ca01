import Foundation
import Glibc
import GRDB

/// The made files of the disk cache on the disk: written under a temporary name, published with
/// their row, read back, removed, and the folder cleaned up at open.
extension DiskCache {
    /// Writes `bytes` to a new temporary file of this writer in `folder` (made again if it was
    /// removed) and fsyncs it.
    /// - Returns: its path.
    /// - Throws: `CacheError.write` (the temporary is removed).
    func writeTemporary(_ bytes: [UInt8]) throws -> String {
        let temporary = folder + "/" + writer.temporaryName(Self.temporaryPrefix)
        let fd = try Self.remakingFolder(folder, path: temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, PrivateFolder.fileMode)
        }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failure = n < 0 ? errno : ENOSPC; return }
                written += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw CacheError.write(path: temporary, code: failure)
        }
        return temporary
    }

    /// Renames `temporary` to `path` and runs `index` (which writes its row) in one write
    /// transaction: another mount sharing the folder, cleaning it up or evicting, sees both or
    /// neither. Nothing is left when it fails.
    /// - Throws: `CacheError.write`, or the database's error.
    func publish(_ temporary: String, as path: String, index: (Database) throws -> Void) throws {
        var renamed = false
        do {
            try database.pool.write { db in
                try index(db)
                guard rename(temporary, path) == 0 else { throw CacheError.write(path: path, code: errno) }
                renamed = true
            }
        } catch {
            // Not committed: the file the rename put in place has no row.
            unlink(renamed ? path : temporary)
            throw error
        }
    }

    /// Forgets the entry `key` whose row has `checksum`, found missing or damaged at `path`, and
    /// removes its file, unless either changed since it was read: another mount may have
    /// evicted it and kept it again meanwhile. `inode` is the damaged file's (nil: it was missing).
    func forget(_ key: String, checksum: Int64, path: String, inode: ino_t?) {
        try? database.pool.write { db in
            var info = stat()
            let present = stat(path, &info) == 0
            guard !present || info.st_ino == inode else { return }
            try db.execute(sql: "DELETE FROM file WHERE key = ? AND checksum = ?", arguments: [key, checksum])
            if present { unlink(path) }
        }
    }

    /// Removes temporary files of writers that are gone, files the index does not name, and index
    /// rows whose file is gone; in one write transaction, so that a file another mount has just
    /// published is named by then, and one it publishes later is not seen yet.
    func cleanUp() {
        var removed = 0
        try? database.pool.write { db in
            let indexed = Set(try String.fetchAll(db, sql: "SELECT name FROM file WHERE kind = 'file'"))
            var present = Set<String>()
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                if name.hasPrefix(Self.temporaryPrefix) {
                    // A writer that is gone left it (a crash mid-write); a live one's is being written.
                    guard writer.isGone(WriterLock.writer(of: name, prefix: Self.temporaryPrefix)) else { continue }
                } else if indexed.contains(name) {
                    present.insert(name)
                    continue
                }
                unlink(folder + "/" + name)
                removed += 1
            }
            for name in indexed.subtracting(present) {
                try db.execute(sql: "DELETE FROM file WHERE name = ? AND kind = 'file'", arguments: [name])
            }
        }
        if removed > 0 { logger.info("disk cache: removed \(removed) unfinished or unindexed files from \(folder)") }
    }

    /// Runs `make` (an `open` or `mkdir` of `path` in `folder`, -1 and errno on failure); when it
    /// fails because `folder` is gone (someone removed the cache folder under the mount), makes the
    /// folder again and retries once.
    /// - Returns: what `make` returned.
    /// - Throws: `CacheError.write` when it still fails.
    static func remakingFolder(_ folder: String, path: String, _ make: () -> Int32) throws -> Int32 {
        var result = make()
        var failure = errno
        if result < 0 && failure == ENOENT, (try? PrivateFolder.make(folder)) != nil {
            result = make()
            failure = errno
        }
        guard result >= 0 else { throw CacheError.write(path: path, code: failure) }
        return result
    }

    /// The bytes of the file at `path` and its inode; nil when it cannot be opened or read.
    static func readFile(_ path: String) -> (bytes: [UInt8], inode: ino_t)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let size = Int(st.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, filled in
            filled = 0
            while filled < size {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, size - filled)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = true; return }
                if n == 0 { return }
                filled += n
            }
        }
        return failed ? nil : (bytes, st.st_ino)
    }
}
