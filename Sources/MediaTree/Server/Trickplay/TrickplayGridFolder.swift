import MediaKit

/// The folder of a film's trickplay sheets, named for the tile width and the grid (`320 - 10x10/`,
/// `TrickplayLayout.folderName`): `0.jpg`, `1.jpg`, …, every one the full grid, the last too.
final class TrickplayGridFolder: ImmediateListing, VersionNode {
    let spot: VersionSpot
    let layout: TrickplayLayout
    /// `Film.trickplay`, for log lines.
    let trickplayName: Name

    static let kind = "trickplay-grid"

    init(folder: TrickplayFolder) {
        layout = folder.layout
        trickplayName = folder.placement!.name
        let name = Name(folder.layout.folderName)
        spot = VersionSpot(folder: Self.kind, of: folder.version, at: Placement(parent: folder.key, name: name), names: [name])
    }

    /// The grid folder of `version`'s trickplay with the mount's settings, where its name is still this one.
    func renewed(in version: MediaVersion, tree: MediaTree) -> TrickplayGridFolder? {
        guard let placement, let folder = TrickplayFolder.folder(of: version, settings: tree.settings.storyboard,
                                                                  placement: Placement(parent: placement.parent, name: trickplayName)),
              Name(folder.layout.folderName) == placement.name else { return nil }
        return TrickplayGridFolder(folder: folder)
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        try (0..<layout.sheetCount).map { try tree.entry(TrickplaySheetFile(folder: self, sheet: $0)) }
    }

    /// `N.jpg`, numbered from 0: parsed, not searched for.
    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        guard let text = name.string, let sheet = layout.sheet(named: text) else { return nil }
        return TrickplaySheetFile(folder: self, sheet: sheet)
    }
}
