/// One name of the tree: the bytes of a file name, as Linux has them. A source name need not be
/// UTF-8 (a collection copied from an old Windows or Samba share has Latin-1 names), so the tree
/// keeps names as bytes and shows them byte for byte; only where a name goes into text (a log
/// line, `info.json`) is it escaped (`escaped`).
public struct Name: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(stringLiteral text: String) { self.init(text) }

    /// The name as text when its bytes are UTF-8; nil otherwise.
    public var string: String? { String(validating: bytes, as: UTF8.self) }

    /// The name as text: itself when UTF-8, else with every byte that is not part of a UTF-8
    /// character written `\xHH` (and a backslash written `\\`, so the bytes can be recovered).
    public var escaped: String { Self.escape(bytes) }
    public var description: String { escaped }

    /// The most bytes a name may have: Linux's `NAME_MAX`, which `statfs` of the mount reports. A
    /// copy of the mount to a disk would fail on a longer one (`cp -r`: "File name too long"), so
    /// no name the tree makes is longer, and FuseBridge answers a lookup of one `ENAMETOOLONG`.
    public static let maximumBytes = 255

    /// Whether this can be one name in a folder: not empty, not `.` or `..`, no `/` and no NUL.
    public var isComponent: Bool {
        !bytes.isEmpty && bytes != [0x2E] && bytes != [0x2E, 0x2E] && !bytes.contains(0x2F) && !bytes.contains(0)
    }

    public static func < (a: Name, b: Name) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    /// The bytes hashed in one piece: an array of bytes hashes them one at a time, and a listing
    /// keys every entry's node by its path and names (it showed in the daemon's profile of `ls -lR`).
    public func hash(into hasher: inout Hasher) { hasher.combineBytes(of: bytes) }

    /// Calls `body` with the name as a NUL-terminated C string, made on the stack (a listing hands
    /// the kernel hundreds of thousands of names: no allocation each).
    @inlinable
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try Self.withCString(bytes, body)
    }

    /// Calls `body` with `bytes` (a name's, a path's) as a NUL-terminated C string, made on the
    /// stack where it fits.
    @inlinable
    static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { text in
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(text).copyMemory(from: $0) }
            text[bytes.count] = 0
            return try body(text.baseAddress!)
        }
    }

    /// `bytes` as text: valid UTF-8 as it is; otherwise every byte that is not part of a UTF-8
    /// character as `\xHH` and every backslash as `\\`, so the bytes can be recovered.
    static func escape(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest valid UTF-8 prefix, then one byte escaped.
            var end = rest.startIndex
            var decoder = UTF8()
            var iterator = rest.makeIterator()
            var valid = rest.startIndex
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    end = valid + UTF8.width(scalar)
                    valid = end
                case .emptyInput, .error:
                    break loop
                }
            }
            text += String(decoding: rest[rest.startIndex..<end], as: UTF8.self).replacingBackslashes()
            rest = rest[end...]
            if let byte = rest.first {
                text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                rest = rest.dropFirst()
            }
        }
        return text
    }
}

extension Hasher {
    /// `bytes` and their count, in one piece.
    mutating func combineBytes(of bytes: [UInt8]) {
        combine(bytes.count)
        bytes.withUnsafeBytes { combine(bytes: $0) }
    }
}

private extension String {
    func replacingBackslashes() -> String {
        contains("\\") ? split(separator: "\\", omittingEmptySubsequences: false).joined(separator: "\\\\") : self
    }

    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
