import MediaKit

/// `contact-sheet.jpg`: one picture of the whole film for a person in a file manager: a header
/// (name, duration, size, streams), then `--contact-sheet-grid` keyframes spread over the film,
/// each labelled with its time (`ContactSheetLayout`). `.png` resolves too. Its size is known from
/// the probe; it is made when read. Only for a file with a moving video.
final class ContactSheetFile: PictureFile, MediaFolderEntry, VersionNode {
    let spot: VersionSpot
    let recipe: ContactSheetRecipe

    static let kind = "contact-sheet"
    static let madeKinds: [MadeKind] = [.contactSheets]
    static let warmedNames: [Name] = [Name(stem + ".jpg")]
    static let stem = MediaFolderNames.contactSheet

    private init(version: MediaVersion, layout: ContactSheetLayout, format: ImageFormat, placement: Placement) {
        spot = VersionSpot(madeFile: Self.kind, of: version, at: placement, names: [placement.name])
        recipe = ContactSheetRecipe(layout: layout, format: format)
    }

    private static func sheet(_ format: ImageFormat, in folder: MediaFolder, tree: MediaTree) -> ContactSheetFile? {
        let grid = tree.settings.contactSheet.grid
        guard let request = ContactSheetRequest(info: folder.version.info, fileName: folder.version.fileName.escaped,
                                                columns: grid.columns, rows: grid.rows),
              let layout = ContactSheetLayout(request) else { return nil }
        let name = Name(stem + "." + format.fileExtension)
        return ContactSheetFile(version: folder.version, layout: layout, format: format, placement: folder.placement(of: name))
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        sheet(.jpeg, in: folder, tree: tree).map { [$0] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        ImageFormat.allCases.first { Name(stem + "." + $0.fileExtension) == name }.flatMap { sheet($0, in: folder, tree: tree) }
    }
}
