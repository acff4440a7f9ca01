import Glibc

/// A `TreeClient` through a real mount, with the calls any program makes: `opendir`/`readdir`
/// (and `fstatat` of each entry, as `ls -l`), `lstat`, `open`/`read`, `lgetxattr`.
public struct MountedTreeClient: TreeClient, Sendable {
    /// The mount point.
    public let point: String
    public var kind: String { "mount" }

    public init(point: String) { self.point = point }

    /// `path` under the mount point.
    public func path(_ relative: String) -> String { relative.isEmpty ? point : point + "/" + relative }

    public func list(_ relative: String) throws(CallError) -> [ListedEntry] {
        guard let folder = opendir(path(relative)) else { throw failed("opendir", relative) }
        defer { closedir(folder) }
        var entries: [ListedEntry] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw failed("readdir", relative) }
                return entries
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var st = Glibc.stat()
            guard fstatat(dirfd(folder), name, &st, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw failed("fstatat", join(relative, name))
            }
            let type: EntryType = switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): .directory
            case Int32(DT_REG): .regular
            default: .other(UInt32(entry.pointee.d_type) << 12)
            }
            entries.append(ListedEntry(name: name, type: type, inode: UInt64(entry.pointee.d_ino), size: Int64(st.st_size)))
        }
    }

    public func stat(_ relative: String) throws(CallError) -> EntryStatus {
        var st = Glibc.stat()
        guard lstat(path(relative), &st) == 0 else { throw failed("stat", relative) }
        let type: EntryType = switch st.st_mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFREG: .regular
        default: .other(UInt32(st.st_mode & S_IFMT))
        }
        return EntryStatus(type: type, size: Int64(st.st_size), inode: UInt64(st.st_ino),
                           permissions: UInt32(st.st_mode & 0o7777))
    }

    public func read(_ relative: String) throws(CallError) -> [UInt8] {
        let fd = open(path(relative), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failed("open", relative) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failed("read", relative)
            }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    public func extendedAttribute(_ name: String, of relative: String) throws(CallError) -> [UInt8] {
        let full = path(relative)
        while true {
            let size = Self.lgetxattr(full, name, nil, 0)
            guard size >= 0 else { throw failed("getxattr \(name)", relative) }
            var value = [UInt8](repeating: 0, count: size)
            let got = value.withUnsafeMutableBytes { Self.lgetxattr(full, name, $0.baseAddress, $0.count) }
            if got < 0 && errno == ERANGE { continue }  // grew between the two calls
            guard got >= 0 else { throw failed("getxattr \(name)", relative) }
            return Array(value.prefix(got))
        }
    }

    /// glibc's `lgetxattr` (sys/xattr.h, which Swift's Glibc module does not import), found once.
    nonisolated(unsafe) private static let lgetxattr: @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int = {
        guard let symbol = dlsym(nil, "lgetxattr") else { fatalError("no lgetxattr in the C library") }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int).self)
    }()

    /// The error of the call that just failed (`errno`).
    func failed(_ call: String, _ relative: String) -> CallError {
        CallError(code: errno, call: "\(call) \(relative)")
    }
}
