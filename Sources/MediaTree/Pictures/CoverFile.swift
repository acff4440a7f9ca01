import MediaKit

/// `cover.jpg` or `cover.png`: the file's cover art. Listed under the format it is stored in
/// (byte for byte, not re-encoded), or the mount's image format for other codecs; the other
/// extension resolves too, converted.
final class CoverFile: PictureFile, MediaFolderEntry, VersionNode {
    let spot: VersionSpot
    let recipe: PictureRecipe

    static let kind = "cover"
    static let madeKinds: [MadeKind] = [.covers]

    private init(version: MediaVersion, name: Name, plan: ImagePlan, placement: Placement) {
        spot = VersionSpot(madeFile: Self.kind, of: version, at: placement, names: [name])
        recipe = PictureRecipe(plan: plan)
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        guard let cover = folder.version.info.coverStream else { return [] }
        let format = cover.codec.flatMap(ImageFormat.init(codec:)) ?? tree.settings.imageFormat
        return Self.cover(format, in: folder, tree: tree).map { [$0] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        guard let text = name.string, text.hasPrefix(MediaFolderNames.cover + "."),
              let format = ImageFormat(fileExtension: text.dropFirst(MediaFolderNames.cover.count + 1)),
              Name(MediaFolderNames.cover + "." + format.fileExtension) == name else { return nil }
        return cover(format, in: folder, tree: tree)
    }

    private static func cover(_ format: ImageFormat, in folder: MediaFolder, tree: MediaTree) -> CoverFile? {
        guard let plan = tree.coverPlan(of: folder.version, format: format) else { return nil }
        let name = Name(MediaFolderNames.cover + "." + format.fileExtension)
        return CoverFile(version: folder.version, name: name, plan: plan, placement: folder.placement(of: name))
    }
}
