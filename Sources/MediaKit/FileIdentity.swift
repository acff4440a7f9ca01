import Glibc
import SystemPackage

/// Which version of a file: a change in any field means the file changed (the tree probes it
/// again; a file a probe kept open is not handed out, `ProbedInputs`).
public struct FileIdentity: Hashable, Sendable, Codable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modificationNanoseconds: Int64
}

extension FileIdentity {
    /// The version a `stat` (or `lstat`, `fstat`) result describes.
    public init(_ st: stat) {
        self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                  modificationNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }

    /// The version `path` names now (following links); nil when it cannot be `stat`ed.
    public init?(path: FilePath) {
        var st = stat()
        guard path.withPlatformString({ stat($0, &st) }) == 0 else { return nil }
        self.init(st)
    }

    /// The file itself (device and inode), whatever its content: a file replaced by a rename over
    /// it is another file, one rewritten in place is the same.
    public var file: UInt64 { device &* 0x9E37_79B9_7F4A_7C15 ^ inode }
}
