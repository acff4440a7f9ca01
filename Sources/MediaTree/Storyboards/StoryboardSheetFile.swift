import MediaKit

/// One sprite sheet of `storyboard/`, `0001.jpg` …: its tiles' keyframes, decoded keyframes only,
/// at an exact size known from the layout (`StoryboardLayout.encodedSize(sheet:)`).
final class StoryboardSheetFile: PictureFile {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let recipe: StoryboardSheetRecipe

    static let kind = "storyboard-sheet"

    init(folder: StoryboardFolder, sheet: Int) {
        version = folder.version
        recipe = StoryboardSheetRecipe(layout: folder.layout, sheet: sheet)
        let name = Name(folder.layout.sheetName(sheet))
        placement = folder.placement(of: name)
        key = NodeKey(madeFile: Self.kind, version: version, names: [name])
    }

    var shownAs: String { "\(version.shownAs)/\(StoryboardFolder.name)/\(placement!.name)" }
}
