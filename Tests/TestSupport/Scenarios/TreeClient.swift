import Glibc

/// A reader of the tree by path, as the scenario suites (`ScenarioGroup`) use it: one definition
/// of a scenario, run directly against a `MediaTree` (`DirectTreeClient`) and through a real
/// mount (`MountedTreeClient`), in the manner of rclone's `vfs/vfstest`.
///
/// Paths are relative to the root of the tree, names separated by `/`; `""` is the root. A call
/// that fails throws `CallError` with the errno the call gave (through a mount) or would give
/// (directly: the errno FuseBridge answers the kernel with, `ErrnoMapping`).
public protocol TreeClient: Sendable {
    /// What the client goes through, for messages: `"tree"` or `"mount"`.
    var kind: String { get }

    /// The entries of the folder at `path`, in the order the tree lists them (without `.` and `..`).
    func list(_ path: String) throws(CallError) -> [ListedEntry]

    /// What `stat` tells of `path` (not following a symbolic link: the tree has none).
    func stat(_ path: String) throws(CallError) -> EntryStatus

    /// The whole content of the file at `path`, read from the start until a read returns nothing.
    func read(_ path: String) throws(CallError) -> [UInt8]

    /// The value of the extended attribute `name` of `path`.
    func extendedAttribute(_ name: String, of path: String) throws(CallError) -> [UInt8]
}

/// The kind of an entry, as a listing or `stat` gives it.
public enum EntryType: Sendable, Equatable {
    case directory, regular
    /// Anything else (the tree has nothing else); the `st_mode` type bits.
    case other(UInt32)
}

/// One entry of a folder listing.
public struct ListedEntry: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var type: EntryType
    /// The entry's inode number (`d_ino` through a mount).
    public var inode: UInt64
    /// The size the listing tells: the tree's listing carries attributes, except for the entries
    /// it knows by name and type only (track files, whose size needs a pass): nil for those.
    /// Through a mount, what `lstat` of the entry gives, as `ls -l` shows it.
    public var size: Int64?

    public init(name: String, type: EntryType, inode: UInt64, size: Int64?) {
        self.name = name
        self.type = type
        self.inode = inode
        self.size = size
    }

    public var description: String { "\(name) (\(type), inode \(inode), size \(size.map(String.init) ?? "-"))" }
}

/// What `stat` tells of an entry.
public struct EntryStatus: Sendable, Equatable {
    public var type: EntryType
    /// Exact: the number of bytes a read of the whole file gives.
    public var size: Int64
    public var inode: UInt64
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: UInt32

    public init(type: EntryType, size: Int64, inode: UInt64, permissions: UInt32) {
        self.type = type
        self.size = size
        self.inode = inode
        self.permissions = permissions
    }
}

/// A call of a `TreeClient` that failed, with its errno.
public struct CallError: Error, Equatable, CustomStringConvertible {
    /// The errno (ENOENT, EIO, …).
    public var code: Int32
    /// The call and its path, for messages: `stat feature-1080p.mp4/x`.
    public var call: String
    /// What the tree said, where the call went to it directly (`TreeError.io`'s reason, or the
    /// media layer's failure of `.media`).
    public var detail: String

    public init(code: Int32, call: String, detail: String = "") {
        self.code = code
        self.call = call
        self.detail = detail
    }

    public var description: String {
        "\(call): \(Self.name(of: code))" + (detail.isEmpty ? "" : " (\(detail))")
    }

    /// `ENOENT` for ENOENT, and so on for the codes the tree answers with; else the number.
    public static func name(of code: Int32) -> String {
        switch code {
        case ENOENT: "ENOENT"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EIO: "EIO"
        case ENODATA: "ENODATA"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case ERANGE: "ERANGE"
        case ESTALE: "ESTALE"
        case EROFS: "EROFS"
        default: "errno \(code)"
        }
    }
}

extension TreeClient {
    /// The errno `body` fails with, or nil when it succeeds.
    public func failure<T>(_ body: () throws(CallError) -> T) -> Int32? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.code
        }
    }

    /// `path/name`, or `name` at the root.
    public func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "/" + name
    }
}
