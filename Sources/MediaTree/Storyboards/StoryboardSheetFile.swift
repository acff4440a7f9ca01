import MediaKit

/// One sprite sheet of `storyboard/`, `0001.jpg` …: its tiles' keyframes, decoded keyframes only,
/// at an exact size known from the layout (`StoryboardLayout.encodedSize(sheet:)`).
final class StoryboardSheetFile: PictureFile, VersionNode {
    let spot: VersionSpot
    let recipe: TileSheetRecipe

    static let kind = "storyboard-sheet"

    init(folder: StoryboardFolder, sheet: Int) {
        spot = VersionSpot(madeFile: Self.kind, named: Name(folder.layout.sheetName(sheet)), in: folder)
        recipe = TileSheetRecipe(storyboard: folder.layout, sheet: sheet)
    }

    var shownAs: String { "\(version.shownAs)/\(StoryboardFolder.name)/\(placement!.name)" }
}
