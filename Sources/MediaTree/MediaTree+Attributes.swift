import Glibc
import MediaKit

extension MediaTree {
    /// The attributes of `node`, made from its source's `stat`.
    func attributes(of node: Node, stat: SourceStat) throws -> Attributes {
        var attributes = fileAttributes(of: node, stat: stat)
        switch node {
        case .sourceFolder:
            attributes.type = .directory
            attributes.size = 4096
            attributes.links = 2
        case .mediaFolder, .chaptersFolder, .thumbsFolder, .tracksFolder, .trackGroup:
            attributes.type = .directory
            attributes.permissions = 0o555
            attributes.size = 4096
            attributes.links = 2
        case .plainFile, .original:
            break
        case .info(let rel):
            attributes.size = Int64(try infoDocument(rel: rel, stat: stat).count)
        case .cover, .chapterImage:
            // Known without decoding: a stored PNG's length, or a PNG written from a known size.
            guard let plan = try picturePlan(of: node, stat: stat) else { throw TreeError.notFound }
            attributes.size = Int64(plan.size)
        case .chaptersJSON(let rel), .chaptersText(let rel):
            attributes.size = Int64(try chapterDocument(node, rel: rel, stat: stat).count)
        case .thumbnail(let rel, let name):
            // Known from the probe alone: the PNG's length depends only on its dimensions.
            guard let request = thumbnailRequest(name: name, info: try probe(rel: rel, stat: stat)) else {
                throw TreeError.notFound
            }
            attributes.size = Int64(PNGEncoder.encodedSize(width: request.width, height: request.height))
        case .track(let rel, let group, let name):
            // Known only once the file's pass has run (waited for here; FuseBridge asks without waiting).
            attributes.size = try trackFileWaiting(rel: rel, group: group, name: name, stat: stat).size
        }
        return attributes
    }

    /// What every node's attributes start from: a regular file with its source's owner and times,
    /// the source's mode and size for the source's own files, read-only (0444) for made files.
    /// `attributes(of:stat:)` makes folders of folders and gives made files their sizes.
    func fileAttributes(of node: Node, stat: SourceStat) -> Attributes {
        var attributes = Attributes(
            inode: inodes.number(for: node, file: stat.identity.file), type: .regular, permissions: stat.mode & 0o555, size: stat.identity.size,
            links: 1, uid: stat.uid, gid: stat.gid,
            accessTime: stat.accessTime, modificationTime: stat.modificationTime, changeTime: stat.changeTime)
        switch node {
        case .plainFile, .original, .sourceFolder, .mediaFolder, .chaptersFolder, .thumbsFolder, .tracksFolder, .trackGroup:
            break
        case .info, .cover, .chapterImage, .chaptersJSON, .chaptersText, .thumbnail, .track:
            attributes.permissions = 0o444
        }
        return attributes
    }
}
