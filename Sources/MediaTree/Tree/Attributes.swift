import Glibc

/// What `stat` reports for a node.
public struct Attributes: Sendable, Equatable {
    public enum FileType: Sendable, Equatable { case directory, regular }

    public var inode: UInt64
    public var type: FileType
    /// Permission bits only; never with write bits (the tree is read-only).
    public var permissions: UInt32
    /// Exact: the number of bytes a read of the whole file returns.
    public var size: Int64
    public var links: UInt32
    public var uid: UInt32
    public var gid: UInt32
    public var accessTime: timespec
    public var modificationTime: timespec
    public var changeTime: timespec

    /// Attributes as listed; FuseBridge makes them again from what a kept listing holds.
    public init(inode: UInt64, type: FileType, permissions: UInt32, size: Int64, links: UInt32, uid: UInt32, gid: UInt32,
                accessTime: timespec, modificationTime: timespec, changeTime: timespec) {
        self.inode = inode
        self.type = type
        self.permissions = permissions
        self.size = size
        self.links = links
        self.uid = uid
        self.gid = gid
        self.accessTime = accessTime
        self.modificationTime = modificationTime
        self.changeTime = changeTime
    }

    public static func == (a: Attributes, b: Attributes) -> Bool {
        a.inode == b.inode && a.type == b.type && a.permissions == b.permissions && a.size == b.size
            && a.links == b.links && a.uid == b.uid && a.gid == b.gid
            && a.modificationTime.tv_sec == b.modificationTime.tv_sec
            && a.modificationTime.tv_nsec == b.modificationTime.tv_nsec
    }
}

/// One name in a folder listing, with what `stat` reports for it when the listing is taken
/// (served to the kernel with the names by readdirplus).
public struct DirectoryEntry: Sendable, Equatable {
    public var name: Name
    /// With `nameAndTypeOnly`, only `inode` and `type` are meaningful.
    public var attributes: Attributes
    /// The `NodeKey.stableHash` of the node the entry names: the node itself is made only when asked
    /// for by name (`FolderNode.child(named:)`), which gives a node of this key.
    public var keyHash: UInt64
    /// The listing knows only the entry's name, inode number and type: the rest needs work that a
    /// plain `ls` must not cause (a track file's size needs a pass over its media file). Readdirplus
    /// then gives no attributes for it, and the kernel looks the name up when someone stats it.
    public var nameAndTypeOnly = false
    public var inode: UInt64 { attributes.inode }

    public init(name: Name, attributes: Attributes, keyHash: UInt64, nameAndTypeOnly: Bool = false) {
        self.name = name
        self.attributes = attributes
        self.keyHash = keyHash
        self.nameAndTypeOnly = nameAndTypeOnly
    }
    public var type: Attributes.FileType { attributes.type }
}
