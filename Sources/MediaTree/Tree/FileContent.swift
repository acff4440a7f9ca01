import Glibc
import MediaKit

/// An open file of the tree: what `read` serves until it is released.
public protocol FileContent: AnyObject, Sendable {
    /// Up to `count` bytes from `offset` (fewer only at the end of the file), handed to `reply` at
    /// once or later: content made as it is read (a BIF's frames) answers once what the read needs
    /// is made, so that no thread waits for it. Errors: `TreeError.io`, `.media`.
    func read(offset: Int64, count: Int, reply: @escaping Reply<[UInt8]>)
    /// The version of the source the bytes were made from: two opens of one node with the same
    /// version have the same bytes, so the kernel may keep the pages it cached at the earlier one.
    var version: FileIdentity { get }
    /// A descriptor whose bytes at the same offsets are the content, so that reads can be answered
    /// by splicing from it instead of copying through memory; nil for content made in memory.
    var spliceDescriptor: Int32? { get }
}

extension FileContent {
    public var spliceDescriptor: Int32? { nil }
}

/// A source file read through: the one owner of its descriptor, closed in `deinit`.
public final class SourceFileContent: FileContent {
    public let descriptor: Int32
    let path: AbsolutePath
    public let version: FileIdentity
    public var spliceDescriptor: Int32? { descriptor }

    /// - Throws: `TreeError.io` if the file cannot be opened.
    init(path: AbsolutePath, version: FileIdentity) throws {
        let fd = path.withCString { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw TreeError.io(path: path.description, reason: String(cString: strerror(errno))) }
        self.descriptor = fd
        self.path = path
        self.version = version
    }

    deinit { close(descriptor) }

    public func read(offset: Int64, count: Int, reply: @escaping Reply<[UInt8]>) {
        reply(PositionalRead.read(descriptor, offset: offset, count: count).mapError {
            TreeError.io(path: path.description, reason: String(cString: strerror($0.code)))
        })
    }
}

/// Bytes made in memory (info.json, later images): served from a snapshot taken at open.
public final class BytesContent: FileContent {
    public let bytes: [UInt8]
    public let version: FileIdentity

    public init(bytes: [UInt8], version: FileIdentity) {
        self.bytes = bytes
        self.version = version
    }

    public func read(offset: Int64, count: Int, reply: @escaping Reply<[UInt8]>) {
        guard offset < bytes.count else { return reply(.success([])) }
        let start = Int(offset)
        reply(.success(Array(bytes[start..<min(bytes.count, start + count)])))
    }
}
