import MediaKit

/// `contact-sheet.jpg`: one picture of the whole film for a person in a file manager: a header
/// (name, duration, size, streams), then `--contact-sheet-grid` keyframes spread over the film,
/// each labelled with its time (`ContactSheetLayout`). `.png` resolves too. Its size is known from
/// the probe; it is made when read. Only for a file with a moving video.
final class ContactSheetFile: PictureFile, MediaFolderEntry, VersionNode {
    let spot: VersionSpot
    let format: ImageFormat
    /// The sheet with its header left blank (`ContactSheetRequest(blankHeaderOf:)`): its size is
    /// the sheet's, and listing writes no text; `recipe` writes it in.
    private let blank: ContactSheetLayout

    static let kind = "contact-sheet"
    static let madeKinds: [MadeKind] = [.contactSheets]
    static let warmedNames: [Name] = [Name(stem + ".jpg")]
    static let stem = MediaFolderNames.contactSheet

    private init(version: MediaVersion, blank: ContactSheetLayout, format: ImageFormat, placement: Placement) {
        spot = VersionSpot(madeFile: Self.kind, of: version, at: placement, names: [placement.name])
        self.blank = blank
        self.format = format
    }

    private static func sheet(_ format: ImageFormat, in folder: MediaFolder, tree: MediaTree) -> ContactSheetFile? {
        let grid = tree.settings.contactSheet.grid
        guard let request = ContactSheetRequest(blankHeaderOf: folder.version.info, columns: grid.columns, rows: grid.rows),
              let blank = ContactSheetLayout(request) else { return nil }
        let name = Name(stem + "." + format.fileExtension)
        return ContactSheetFile(version: folder.version, blank: blank, format: format, placement: folder.placement(of: name))
    }

    func size(in tree: MediaTree) throws -> Int { blank.encodedSize(format: format) }

    /// The sheet to make: the blank one with its header written (as high: a layout of it exists).
    var recipe: ContactSheetRecipe {
        let request = blank.request.withHeader(of: version.info, fileName: version.fileName.escaped)
        return ContactSheetRecipe(layout: ContactSheetLayout(request)!, format: format)
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        sheet(.jpeg, in: folder, tree: tree).map { [$0] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        ImageFormat.allCases.first { Name(stem + "." + $0.fileExtension) == name }.flatMap { sheet($0, in: folder, tree: tree) }
    }
}
