import Glibc
import SystemPackage

/// An output file written under a temporary name beside its final one and renamed when complete,
/// so the final name only ever holds a whole file. The one owner of the temporary file: it is
/// removed in `deinit` unless `commit()` renamed it. Paths go to the system as their bytes.
final class PendingFile {
    let finalPath: FilePath
    let temporaryPath: FilePath
    private var committed = false

    /// Makes an empty temporary file `.partial-XXXXXX` (mode 0600: only the daemon reads it) in
    /// the folder of `finalPath`, which must exist. The corresponding C function is `mkstemp`.
    /// - Throws: `MediaError.output`.
    init(finalPath: FilePath) throws {
        self.finalPath = finalPath
        var template = finalPath.removingLastComponent().appending(".partial-XXXXXX")
            .withPlatformString { Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1)) }
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw MediaError.output(path: finalPath.description, reason: systemError()) }
        close(fd)
        temporaryPath = FilePath(platformString: template)
    }

    /// Renames the temporary file to the final name (replacing an older one); its size in bytes.
    /// The corresponding C function is `rename`.
    /// - Throws: `MediaError.output`.
    func commit() throws -> Int64 {
        var info = stat()
        let renamed = temporaryPath.withPlatformString { temporary in
            finalPath.withPlatformString { final in
                stat(temporary, &info) == 0 && rename(temporary, final) == 0
            }
        }
        guard renamed else { throw MediaError.output(path: finalPath.description, reason: systemError()) }
        committed = true
        return Int64(info.st_size)
    }

    deinit {
        if !committed { _ = temporaryPath.withPlatformString { unlink($0) } }
    }
}

/// The text of the current `errno`.
func systemError() -> String {
    String(cString: strerror(errno))
}
