import MediaKit

/// A file mediafs makes from one version of a media file (`info.json`, an image, a chapter
/// document): read-only, with the source's owner and times, an exact size known before it is
/// made, and bytes made (or found kept) at open.
///
/// Its number names the version it was made from (`NodeKey.stamp` is `MediaVersion.stamp`):
/// whatever a reader gets is a whole file of one version. Asked for after the source changed, it
/// answers `TreeError.stale`, and the kernel looks the name up again, which gives the new
/// version's node, under a new number; a handle open on the old one keeps its bytes.
protocol MadeFile: FileNode, ImmediateAttributes {
    var version: MediaVersion { get }
    /// The exact length of the bytes, without making them.
    func size(in tree: MediaTree) throws -> Int
    /// The bytes: at once, or from a pool once made.
    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>)
}

extension MadeFile {
    func current(in tree: MediaTree) throws -> any TreeNode {
        guard try tree.currentVersion(of: version) === version else { throw TreeError.stale }
        return self
    }

    func attributes(in tree: MediaTree) throws -> Attributes {
        var attributes = tree.madeFileAttributes(of: self, stat: version.stat)
        attributes.size = Int64(try size(in: tree))
        return attributes
    }

    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>) {
        let identity = version.identity
        bytes(in: tree) { result in
            reply(result.map { BytesContent(bytes: $0, version: identity) })
        }
    }
}

extension NodeKey {
    /// The key of a made file of `version`, numbered per version.
    init(madeFile kind: String, version: MediaVersion, names: [Name] = []) {
        self.init(kind: kind, path: version.path, names: names, stamp: version.stamp)
    }
}

/// A made file whose bytes are a picture made from the media file (`MediaRecipe`): its size is
/// the recipe's, its bytes come through the one pipeline (`MediaTree.made`).
protocol PictureFile: MadeFile {
    associatedtype Recipe: MediaRecipe
    var recipe: Recipe { get }
    /// The file as the log names it: its source's path and its own within the media folder.
    var shownAs: String { get }
}

extension PictureFile {
    func size(in tree: MediaTree) throws -> Int { recipe.size }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        made(in: tree) { reply($0.map(\.bytes)) }
    }

    /// The picture, with the frame it shows: `user.mediafs.time` and `.keyframe` make it too.
    func made(in tree: MediaTree, reply: @escaping Reply<MadeBytes>) {
        tree.made(recipe, of: version, shownAs: shownAs, reply: reply)
    }

    /// For a file directly in the media folder.
    var shownAs: String { "\(version.shownAs)/\(placement!.name)" }
}
