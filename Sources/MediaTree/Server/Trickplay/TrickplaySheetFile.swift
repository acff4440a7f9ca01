import MediaKit

/// One sheet of a film's trickplay, `N.jpg`: its tiles' keyframes on the full grid (black after the
/// last tile), at an exact size known from the layout (`TrickplayLayout.sheetByteCount(sheet:)`).
final class TrickplaySheetFile: PictureFile {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let recipe: TrickplaySheetRecipe
    private let trickplayName: Name

    static let kind = "trickplay-sheet"

    init(folder: TrickplayGridFolder, sheet: Int) {
        version = folder.version
        trickplayName = folder.trickplayName
        recipe = TrickplaySheetRecipe(layout: folder.layout, sheet: sheet)
        let name = Name(TrickplayLayout.sheetName(sheet))
        placement = Placement(parent: folder.key, name: name)
        key = NodeKey(madeFile: Self.kind, version: version, names: [Name(folder.layout.folderName), name])
    }

    var shownAs: String {
        "\(version.shownBeside(trickplayName))/\(recipe.layout.folderName)/\(placement!.name)"
    }
}

/// One trickplay sheet: made by `MediaService.trickplaySheet`, of the storyboard request's tiles.
struct TrickplaySheetRecipe: MediaRecipe, Codable {
    let request: StoryboardRequest
    /// 0-based.
    let sheet: Int
    let size: Int

    init(layout: TrickplayLayout, sheet: Int) {
        request = layout.request
        self.sheet = sheet
        size = layout.sheetByteCount(sheet: sheet)
    }

    /// The layout the request gives (it had one when the recipe was made).
    var layout: TrickplayLayout { TrickplayLayout(request)! }

    var kind: MadeKind { .trickplaySheets }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        MadeBytes(bytes: try media.trickplaySheet(of: file, layout: layout, sheet: sheet))
    }
}

extension MadeKind {
    /// Jellyfin's trickplay sheets (`TrickplaySheetRecipe`).
    static let trickplaySheets = MadeKind(name: "trickplay_sheets", revision: 1)
}
