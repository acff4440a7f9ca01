import MediaKit

/// `folder.jpg`: the film's face where a file manager, player or server reads a picture from the
/// folder itself (KDE through `.directory`, mpv's and Jellyfin's folder images, Windows Explorer):
/// the cover where there is one (a JPEG one byte for byte, another converted), else the
/// representative frame (`RepresentativeFrameRecipe`). For a media folder with either.
final class FolderPictureFile: PictureFile, MediaFolderEntry, VersionNode {
    let spot: VersionSpot
    let recipe: FolderPictureRecipe

    static let kind = "folder-picture"
    static let name: Name = "folder.jpg"
    static let madeKinds: [MadeKind] = [.covers, .representativeFrames]
    static let warmedNames: [Name] = [name]

    private init(version: MediaVersion, recipe: FolderPictureRecipe, placement: Placement) {
        spot = VersionSpot(madeFile: Self.kind, of: version, at: placement, names: [Self.name])
        self.recipe = recipe
    }

    /// The picture of `version`'s folder, or nil: no cover, no moving video.
    static func recipe(of version: MediaVersion, tree: MediaTree) -> FolderPictureRecipe? {
        if let cover = tree.coverPlan(of: version, format: .jpeg) { return .cover(PictureRecipe(plan: cover)) }
        return RepresentativeFrameRecipe(info: version.info).map(FolderPictureRecipe.frame)
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        recipe(of: folder.version, tree: tree).map { [FolderPictureFile(version: folder.version, recipe: $0,
                                                                         placement: folder.placement(of: name))] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        name == Self.name ? listed(in: folder, tree: tree).first : nil
    }
}

/// The picture of `folder.jpg`: the cover's, or the representative frame's.
enum FolderPictureRecipe: MediaRecipe, Codable {
    case cover(PictureRecipe)
    case frame(RepresentativeFrameRecipe)

    private var recipe: any MediaRecipe {
        switch self {
        case .cover(let recipe): recipe
        case .frame(let recipe): recipe
        }
    }

    var kind: MadeKind { recipe.kind }
    var size: Int { recipe.size }
    var keptOnDisk: Bool { recipe.keptOnDisk }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        try recipe.make(from: file, media: media)
    }
}
