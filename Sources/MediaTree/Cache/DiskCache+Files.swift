import Foundation
import Glibc

/// The made files of the disk cache on the disk: written under a temporary name, renamed into
/// place, read back.
extension DiskCache {
    /// Writes `bytes` to a temporary file in `folder`, fsyncs it and renames it to `path`.
    /// - Throws: `CacheError.write` (the temporary is removed).
    static func writeAtomically(_ bytes: [UInt8], to path: String, folder: String) throws {
        let temporary = folder + "/" + temporaryPrefix + "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let fd = try remakingFolder(folder, path: temporary) { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, PrivateFolder.fileMode) }
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
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw CacheError.write(path: path, code: failure)
        }
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

    static func readFile(_ path: String) -> [UInt8]? {
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
        return failed ? nil : bytes
    }

    /// `Checksum` of an entry: its bytes, seeded with its row's key, name and metadata, so that a
    /// row changed on the disk (a flipped digit of the frame time it keeps) fails as a changed
    /// file does. The size is part of it too (`Checksum` hashes the length).
    static func checksum(_ bytes: [UInt8], key: String, name: String, meta: String?) -> Int64 {
        let row = Array("\(key)\n\(name)\n".utf8) + (meta.map { [1] + Array($0.utf8) } ?? [0])
        return Int64(bitPattern: Checksum.of(bytes, seed: Checksum.of(row)))
    }
}
