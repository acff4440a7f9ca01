import Glibc

/// Writes text to a file through a 64 KiB buffer: the one owner of the file descriptor, closed in
/// `deinit` if `close()` was not called. Memory stays bounded however long the file grows.
final class BufferedFileWriter {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private let path: String
    private static let capacity = 64 * 1024

    /// Opens `path` for writing, truncating it. The corresponding C function is `open`.
    /// - Throws: `MediaError.output`.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw MediaError.output(path: path, reason: systemError()) }
        buffer.reserveCapacity(Self.capacity)
    }

    /// Adds `text` as UTF-8. - Throws: `MediaError.output`.
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes what is buffered. The corresponding C function is `write`.
    /// - Throws: `MediaError.output`.
    func flush() throws {
        var done = 0
        while done < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                throw MediaError.output(path: path, reason: systemError())
            }
            done += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file. - Throws: `MediaError.output`.
    func close() throws {
        try flush()
        let result = Glibc.close(fd)
        fd = -1
        if result != 0 { throw MediaError.output(path: path, reason: systemError()) }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }
}
