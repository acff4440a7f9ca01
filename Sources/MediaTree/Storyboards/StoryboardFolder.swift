import MediaKit

/// `storyboard/`: the whole film at a glance for players and media servers. A frame every
/// `--storyboard-interval` seconds (the keyframe nearest its time), laid out in sprite sheets
/// (`0001.jpg` …, `--storyboard-grid` tiles of `--storyboard-width`), with `storyboard.vtt`
/// (WebVTT cues pointing into the sheets, `0001.jpg#xywh=…`) and `storyboard.m3u8` (the same
/// tiles as an HLS image playlist). Every size is known from the probe (`StoryboardLayout`);
/// listing makes nothing. Only for a file with a moving video.
final class StoryboardFolder: ImmediateListing, NamedSubfolder {
    let spot: VersionSpot
    let layout: StoryboardLayout

    static let madeKinds: [MadeKind] = [.storyboardSheets, .documents]
    static let name = MediaFolderNames.storyboard

    init?(spot: VersionSpot, tree: MediaTree) {
        let settings = tree.settings.storyboard
        guard let request = StoryboardRequest(info: spot.version.info, interval: settings.interval,
                                              columns: settings.grid.columns, rows: settings.grid.rows,
                                              tileWidth: settings.width, format: .jpeg),
              let layout = StoryboardLayout(request) else { return nil }
        self.spot = spot
        self.layout = layout
    }

    private var entries: [any TreeNode] {
        StoryboardTextFile.Text.allCases.map { StoryboardTextFile(folder: self, text: $0) }
            + (0..<layout.sheetCount).map { StoryboardSheetFile(folder: self, sheet: $0) }
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        try ScannerMarker.entries(in: self, tree: tree) + entries.map { try tree.entry($0) }
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        if let marker = ScannerMarker.file(named: name, in: self) { return marker }
        if let text = StoryboardTextFile.Text.allCases.first(where: { $0.name == name }) {
            return StoryboardTextFile(folder: self, text: text)
        }
        // `NNNN.jpg`, numbered from 1: parsed, not searched for.
        guard let string = name.string, let sheet = layout.sheet(named: string) else { return nil }
        return StoryboardSheetFile(folder: self, sheet: sheet)
    }
}
