import Glibc
import SystemPackage

/// A path in the source, relative to its root, as bytes (names need not be UTF-8; see `Name`):
/// empty for the root, names joined by `/`, no leading or trailing slash.
public struct SourcePath: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var bytes: [UInt8]

    public static let root = SourcePath(bytes: [])

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(stringLiteral text: String) { self.init(text) }

    public var isRoot: Bool { bytes.isEmpty }

    public static func < (a: SourcePath, b: SourcePath) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    /// The bytes in one piece, as `Name` hashes them.
    public func hash(into hasher: inout Hasher) { hasher.combineBytes(of: bytes) }

    /// The path of `name` in this folder.
    public func appending(_ name: Name) -> SourcePath {
        SourcePath(bytes: isRoot ? name.bytes : bytes + [0x2F] + name.bytes)
    }

    /// The last name (the root's is empty).
    public var lastName: Name {
        guard let slash = bytes.lastIndex(of: 0x2F) else { return Name(bytes: bytes) }
        return Name(bytes: Array(bytes[(slash + 1)...]))
    }

    /// The folder holding this path (the root for a name in the root, and for the root).
    public var parent: SourcePath {
        guard let slash = bytes.lastIndex(of: 0x2F) else { return .root }
        return SourcePath(bytes: Array(bytes[..<slash]))
    }

    /// Whether this is `ancestor` itself or lies under it.
    public func isWithin(_ ancestor: SourcePath) -> Bool {
        ancestor.isRoot || bytes == ancestor.bytes
            || (bytes.starts(with: ancestor.bytes) && bytes.count > ancestor.bytes.count && bytes[ancestor.bytes.count] == 0x2F)
    }

    /// For logs and errors: escaped as `Name.escaped`.
    public var description: String { Name.escape(bytes) }
}

/// An absolute path of the source, as bytes, for the system calls that take one.
struct AbsolutePath: Sendable, Equatable, CustomStringConvertible {
    var bytes: [UInt8]

    /// Calls `body` with the path as a NUL-terminated C string, made on the stack where it fits
    /// (`opendir` stats a media file's path each time: no allocation each).
    func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try Name.withCString(bytes, body)
    }

    /// As the media layer takes a path: its bytes, whatever they are.
    var filePath: FilePath { withCString { FilePath(platformString: $0) } }
    var description: String { Name.escape(bytes) }
}
