import Glibc
import SystemPackage

/// A file written front to back through a buffer: the one owner of its descriptor, closed in
/// `deinit`. For outputs MediaKit writes itself rather than through a libavformat muxer.
final class AppendingFile {
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let path: FilePath
    /// Bytes handed to `append` so far: the position the next ones start at.
    private(set) var position: Int64 = 0
    private static let flushBytes = 1 << 16

    /// Opens `path` (an existing file, such as a `PendingFile`'s temporary one) for writing, emptied.
    /// The corresponding C function is `open`.
    /// - Throws: `MediaError.output`.
    init(path: FilePath) throws {
        self.path = path
        descriptor = path.withPlatformString { open($0, O_WRONLY | O_TRUNC | O_CLOEXEC) }
        guard descriptor >= 0 else { throw MediaError.output(path: path.description, reason: systemError()) }
        buffer.reserveCapacity(Self.flushBytes)
    }

    /// Adds `bytes` at the end.
    /// - Throws: `MediaError.output` when writing fails.
    func append(_ bytes: [UInt8]) throws {
        buffer += bytes
        position += Int64(bytes.count)
        if buffer.count >= Self.flushBytes { try flush() }
    }

    /// Writes what is buffered and closes the file. The corresponding C function is `close`.
    /// - Throws: `MediaError.output`.
    func finish() throws {
        try flush()
        let result = close(descriptor)
        descriptor = -1
        guard result == 0 else { throw MediaError.output(path: path.description, reason: systemError()) }
    }

    /// The corresponding C function is `write`.
    private func flush() throws {
        var written = 0
        while written < buffer.count {
            let count = buffer[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw MediaError.output(path: path.description, reason: systemError()) }
            written += count
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
