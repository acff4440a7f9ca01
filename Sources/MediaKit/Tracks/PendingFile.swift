import Glibc

/// An output file written under a temporary name beside its final one and renamed when complete,
/// so the final name only ever holds a whole file. The one owner of the temporary file: it is
/// removed in `deinit` unless `commit()` renamed it.
final class PendingFile {
    let finalPath: String
    let temporaryPath: String
    private var committed = false

    /// Makes an empty temporary file `.partial-XXXXXX` (mode 0644) in the folder of `finalPath`,
    /// which must exist. The corresponding C function is `mkstemp`.
    /// - Throws: `MediaError.output`.
    init(finalPath: String) throws {
        self.finalPath = finalPath
        let folder = finalPath.lastIndex(of: "/").map { String(finalPath[..<$0]) } ?? "."
        var template = Array("\(folder)/.partial-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw MediaError.output(path: finalPath, reason: systemError()) }
        fchmod(fd, 0o644)
        close(fd)
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Renames the temporary file to the final name (replacing an older one); its size in bytes.
    /// The corresponding C function is `rename`.
    /// - Throws: `MediaError.output`.
    func commit() throws -> Int64 {
        var info = stat()
        guard stat(temporaryPath, &info) == 0, rename(temporaryPath, finalPath) == 0 else {
            throw MediaError.output(path: finalPath, reason: systemError())
        }
        committed = true
        return Int64(info.st_size)
    }

    deinit {
        if !committed { unlink(temporaryPath) }
    }
}

/// The text of the current `errno`.
func systemError() -> String {
    String(cString: strerror(errno))
}

/// Makes `path` and its missing parents (mode 0755).
/// - Throws: `MediaError.output`.
func makeFolders(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        prefix += "/" + component
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw MediaError.output(path: prefix, reason: systemError())
        }
    }
}
