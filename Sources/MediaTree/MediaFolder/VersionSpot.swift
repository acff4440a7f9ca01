import MediaKit

/// Where an entry of one version of a media file stands: the version it shows, where it is
/// listed, and its key, made by one of the two numbering rules below. Every entry of a media
/// folder (and the folder) holds one, as a `VersionNode`.
struct VersionSpot: Sendable {
    let version: MediaVersion
    let placement: Placement
    let key: NodeKey

    /// A folder: numbered per media file, so that it keeps its number when the source changes
    /// (`MediaSubfolder.renewed`).
    init(folder kind: String, of version: MediaVersion, at placement: Placement, names: [Name] = []) {
        self.version = version
        self.placement = placement
        key = NodeKey(kind: kind, path: version.path, names: names)
    }

    /// A made file: numbered per version (`MadeFile`), by `names` within the media folder.
    init(madeFile kind: String, of version: MediaVersion, at placement: Placement, names: [Name]) {
        self.version = version
        self.placement = placement
        key = NodeKey(madeFile: kind, version: version, names: names)
    }

    /// A made file called `name` in `folder`, a subfolder of the media folder.
    init(madeFile kind: String, named name: Name, in folder: some MediaSubfolder) {
        self.init(madeFile: kind, of: folder.version, at: folder.placement(of: name), names: [name])
    }
}

/// A node of one version of a media file, which says where it stands once (`spot`).
protocol VersionNode: TreeNode {
    var spot: VersionSpot { get }
}

extension VersionNode {
    var version: MediaVersion { spot.version }
    var placement: Placement? { spot.placement }
    var key: NodeKey { spot.key }
}
