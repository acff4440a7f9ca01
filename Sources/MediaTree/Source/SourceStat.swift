import Glibc
import MediaKit

/// What the tree needs to know of a source file or folder, from one `stat`.
struct SourceStat: Sendable, Equatable {
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
    static func read(_ path: AbsolutePath, root: String) -> SourceStat? {
        var st = stat()
        guard path.withCString({ lstat($0, &st) }) == 0 else { return nil }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            guard path.withCString({ stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                  let target = path.withCString({ realpath($0, nil) }) else { return nil }
            defer { free(target) }
            let prefix = Array((root == "/" ? "/" : root + "/").utf8)
            guard UnsafeBufferPointer(start: target, count: strlen(target)).map({ UInt8(bitPattern: $0) }).starts(with: prefix) else { return nil }
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFDIR || type == S_IFREG else { return nil }
        return SourceStat(
            isDirectory: type == S_IFDIR, isRegular: type == S_IFREG,
            identity: FileIdentity(st),
            mode: UInt32(st.st_mode), uid: st.st_uid, gid: st.st_gid,
            accessTime: st.st_atim, modificationTime: st.st_mtim, changeTime: st.st_ctim)
    }

    /// Whether `other` is the same version for the tree: the same bytes (`identity`) and the same
    /// owner, group and mode, which say who may read what is made from it (`Access`). A `chmod` or
    /// `chown` is a change like any other: what is made from the file is shown anew.
    func isSameVersion(as other: SourceStat) -> Bool {
        identity == other.identity && mode == other.mode && uid == other.uid && gid == other.gid
    }

    /// Every field the same but the access time (a listing made from one stat holds for the other:
    /// reading a file moves its access time, and with it every listing of a library read through).
    static func == (a: SourceStat, b: SourceStat) -> Bool {
        a.identity == b.identity && a.isDirectory == b.isDirectory && a.isRegular == b.isRegular && a.mode == b.mode
            && a.uid == b.uid && a.gid == b.gid
            && same(a.modificationTime, b.modificationTime) && same(a.changeTime, b.changeTime)
    }

    private static func same(_ a: timespec, _ b: timespec) -> Bool { a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec }
}
