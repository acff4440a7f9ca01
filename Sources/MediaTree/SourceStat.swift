import Glibc

/// What the tree needs to know of a source file or folder, from one `stat`.
struct SourceStat: Sendable {
    var isDirectory: Bool
    var isRegular: Bool
    var identity: FileIdentity
    var mode: UInt32
    var uid: UInt32
    var gid: UInt32
    var accessTime: timespec
    var modificationTime: timespec
    var changeTime: timespec

    /// Stats `path`, following a symbolic link only to a regular file inside `root` (a link to a
    /// folder could make a loop, and nothing outside the source may show through the mount).
    /// - Parameter root: the resolved (`realpath`) source root.
    /// - Returns: nil where there is nothing to show (missing, a link to a folder, to nothing or out
    ///   of the source, a device, …).
    static func read(_ path: String, root: String) -> SourceStat? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                  let target = realpath(path, nil) else { return nil }
            defer { free(target) }
            guard String(cString: target).hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFDIR || type == S_IFREG else { return nil }
        return SourceStat(
            isDirectory: type == S_IFDIR, isRegular: type == S_IFREG,
            identity: FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                                   modificationNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)),
            mode: UInt32(st.st_mode), uid: st.st_uid, gid: st.st_gid,
            accessTime: st.st_atim, modificationTime: st.st_mtim, changeTime: st.st_ctim)
    }
}

/// Which version of a source file: a change in any field means the file changed and is probed again.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modificationNanoseconds: Int64

    /// The file itself (device and inode), whatever its content: a file replaced by a rename over
    /// it is another file, one rewritten in place is the same.
    public var file: UInt64 { device &* 0x9E37_79B9_7F4A_7C15 ^ inode }
}
