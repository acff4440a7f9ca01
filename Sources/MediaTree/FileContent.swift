import Glibc

/// An open file of the tree: what `read` serves until it is released.
public protocol FileContent: AnyObject, Sendable {
    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    /// - Throws: `TreeError.io`.
    func read(offset: Int64, count: Int) throws -> [UInt8]
}

/// A source file read through: the one owner of its descriptor, closed in `deinit`.
public final class SourceFileContent: FileContent {
    public let descriptor: Int32
    let path: String

    /// - Throws: `TreeError.io` if the file cannot be opened.
    init(path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TreeError.io(path: path, reason: String(cString: strerror(errno))) }
        self.descriptor = fd
        self.path = path
    }

    deinit { close(descriptor) }

    public func read(offset: Int64, count: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            filled = 0
            while filled < count {
                let n = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno; return }
                if n == 0 { return }
                filled += n
            }
        }
        guard failure == 0 else { throw TreeError.io(path: path, reason: String(cString: strerror(failure))) }
        return bytes
    }
}

/// Bytes made in memory (info.json, later images): served from a snapshot taken at open.
public final class BytesContent: FileContent {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public func read(offset: Int64, count: Int) throws -> [UInt8] {
        guard offset < bytes.count else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + count)])
    }
}
