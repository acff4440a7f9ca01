import MediaKit

/// One sheet of a film's trickplay, `N.jpg`: its tiles' keyframes on the full grid (black after the
/// last tile), at an exact size known from the layout (`TrickplayLayout.sheetByteCount(sheet:)`).
final class TrickplaySheetFile: PictureFile, VersionNode {
    let spot: VersionSpot
    let recipe: TileSheetRecipe
    private let trickplayName: Name
    private let gridName: String

    static let kind = "trickplay-sheet"

    init(folder: TrickplayGridFolder, sheet: Int) {
        trickplayName = folder.trickplayName
        gridName = folder.layout.folderName
        recipe = TileSheetRecipe(trickplay: folder.layout, sheet: sheet)
        let name = Name(TrickplayLayout.sheetName(sheet))
        spot = VersionSpot(madeFile: Self.kind, of: folder.version, at: Placement(parent: folder.key, name: name),
                           names: [Name(folder.layout.folderName), name])
    }

    var shownAs: String {
        "\(version.shownBeside(trickplayName))/\(gridName)/\(placement!.name)"
    }
}
