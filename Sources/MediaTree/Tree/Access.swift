/// Who may read an entry of the mount: the one rule, from the stat of the source entry the entry
/// shows or was made from. Every kind of entry takes its owner, group and mode from here
/// (`MediaTree+Attributes`), and the kernel enforces them (the mount has `default_permissions`).
///
/// Nobody reads through the mount what the source would not let them read: what is made from a
/// file (its media folder and everything in it: pictures, documents, tracks, their `user.mediafs.*`
/// attributes) is readable by exactly those who may read the file. Made files are never executable;
/// a made folder can be entered by whoever may read the file. Nothing is writable (the mount is
/// read-only), and set-id and sticky bits never show.
///
/// The source's POSIX ACLs are not carried: where a file has one, its group bits are the ACL's mask
/// (as `stat` gives them), and the users and groups it names get what its other bits give.
struct Access: Equatable, Sendable {
    /// Permission bits only (`rwx` for owner, group and others).
    var permissions: UInt32
    var owner: UInt32
    var group: UInt32

    static let readBits: UInt32 = 0o444
    static let readAndSearchBits: UInt32 = 0o555

    /// A source entry shown as itself (a folder of the source, a plain file, a media file's
    /// original): its own owner, group, read and execute bits.
    static func shown(_ stat: SourceStat) -> Access {
        Access(permissions: stat.mode & readAndSearchBits, owner: stat.uid, group: stat.gid)
    }

    /// A file made from the source file `stat` describes: its owner, group and read bits.
    static func madeFile(from stat: SourceStat) -> Access {
        Access(permissions: stat.mode & readBits, owner: stat.uid, group: stat.gid)
    }

    /// A folder made from the source file `stat` describes (its media folder and the folders in
    /// it): its owner, group and read bits, each with the search bit beside it, so that whoever may
    /// read the file may list and enter the folder, and nobody else.
    static func madeFolder(from stat: SourceStat) -> Access {
        let read = stat.mode & readBits
        return Access(permissions: read | read >> 2, owner: stat.uid, group: stat.gid)
    }
}
