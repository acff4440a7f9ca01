import Glibc
import MediaKit

/// An open file of the tree: what `read` serves until it is released.
public protocol FileContent: AnyObject, Sendable {
    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    /// - Throws: `TreeError.io`.
    func read(offset: Int64, count: Int) throws -> [UInt8]
    /// `read(offset:count:)`'s answer, handed to `reply` at once or later: content made as it is
    /// read (a BIF's frames) answers once what the read needs is made, so that no thread of the
    /// caller's waits for it. By default, at once.
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

    public func read(offset: Int64, count: Int, reply: @escaping Reply<[UInt8]>) {
        reply(Result { try read(offset: offset, count: count) })
    }
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

    public func read(offset: Int64, count: Int) throws -> [UInt8] {
        do {
            return try PositionalRead.read(descriptor, offset: offset, count: count).get()
        } catch {
            throw TreeError.io(path: path.description, reason: String(cString: strerror(error.code)))
        }
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

    public func read(offset: Int64, count: Int) throws -> [UInt8] {
        guard offset < bytes.count else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + count)])
    }
}
