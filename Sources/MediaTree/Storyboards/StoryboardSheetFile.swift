import MediaKit

/// One sprite sheet of `storyboard/`, `0001.jpg` …: its tiles' keyframes, decoded keyframes only,
/// at an exact size known from the layout (`StoryboardLayout.encodedSize(sheet:)`).
final class StoryboardSheetFile: MadeFile {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let layout: StoryboardLayout
    /// 0-based.
    let sheet: Int

    static let kind = "storyboard-sheet"

    init(folder: StoryboardFolder, sheet: Int) {
        version = folder.version
        layout = folder.layout
        self.sheet = sheet
        let name = Name(folder.layout.sheetName(sheet))
        placement = folder.placement(of: name)
        key = NodeKey(madeFile: Self.kind, version: version, names: [name])
    }

    func size(in tree: MediaTree) throws -> Int { layout.encodedSize(sheet: sheet) }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        let request = layout.request
        let (file, media, sheet) = (version.file, tree.media, sheet)
        let what = "storyboard-1 \(request.streamIndex) \(String(request.duration.bitPattern, radix: 16)) "
            + "\(String(request.interval.bitPattern, radix: 16)) \(request.columns)x\(request.rows) "
            + "\(request.tileWidth)x\(request.tileHeight) \(request.format.rawValue) \(sheet)"
        tree.madeImage(what, of: version, size: layout.encodedSize(sheet: sheet),
                       shownAs: "\(version.shownAs)/\(StoryboardFolder.name)/\(placement!.name)", make: {
            MadeImage(bytes: try media.storyboardSheet(of: file, request: request, sheet: sheet))
        }) { reply($0.map(\.bytes)) }
    }
}
