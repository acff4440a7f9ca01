/// The attributes of every kind of entry, from the stat of the source entry it shows or was made
/// from. Who may read it comes from `Access` alone: a kind picks whether it shows the source
/// itself or was made from it, never its own mode bits.
extension MediaTree {
    /// A file made from a source file (a picture, a document, a track): the source's owner, group,
    /// times, and read bits (`Access.madeFile`). `size` is the source's: the caller sets the made file's.
    func madeFileAttributes(of node: any TreeNode, stat: SourceStat) -> Attributes {
        madeFileAttributes(number: node.key.number, stat: stat)
    }

    /// `madeFileAttributes(of:stat:)` of the node whose key asks for `number`, without the node (a
    /// listing of many).
    func madeFileAttributes(number: UInt64, stat: SourceStat) -> Attributes {
        attributes(number: number, stat: stat, access: .madeFile(from: stat))
    }

    /// A folder made from a source file (a media folder, `thumbs/`, `tracks/audible/`, …): readable
    /// and searchable by exactly those who may read the file (`Access.madeFolder`).
    func madeFolderAttributes(of node: any TreeNode, stat: SourceStat) -> Attributes {
        folder(attributes(of: node, stat: stat, access: .madeFolder(from: stat)))
    }

    /// A file of the source shown as itself (a plain file, a media file's original): its owner,
    /// times, size and mode without write bits (`Access.shown`).
    func shownFileAttributes(of node: any TreeNode, stat: SourceStat) -> Attributes {
        attributes(of: node, stat: stat, access: .shown(stat))
    }

    /// A folder of the source, mirrored: its own owner and mode without write bits.
    func shownFolderAttributes(of node: any TreeNode, stat: SourceStat) -> Attributes {
        folder(attributes(of: node, stat: stat, access: .shown(stat)))
    }

    private func attributes(of node: any TreeNode, stat: SourceStat, access: Access) -> Attributes {
        attributes(number: node.key.number, stat: stat, access: access)
    }

    private func attributes(number: UInt64, stat: SourceStat, access: Access) -> Attributes {
        Attributes(
            inode: number, type: .regular, permissions: access.permissions, size: stat.identity.size,
            links: 1, uid: access.owner, gid: access.group,
            accessTime: stat.accessTime, modificationTime: stat.modificationTime, changeTime: stat.changeTime)
    }

    private func folder(_ file: Attributes) -> Attributes {
        var attributes = file
        attributes.type = .directory
        attributes.size = 4096
        attributes.links = 2
        return attributes
    }
}
