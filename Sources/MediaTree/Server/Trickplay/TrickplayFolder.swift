import MediaKit

/// Jellyfin's trickplay beside a film, as Jellyfin 10.10+ writes it with "save trickplay images
/// next to media": `Film.trickplay/`, holding one folder named for the tile width and the grid
/// (`320 - 10x10/`, `TrickplayGridFolder`) of sheets `0.jpg`, `1.jpg`, … (`TrickplayLayout`). Tiles
/// every `--storyboard-interval` seconds, `--storyboard-width` wide (the video's width where that
/// is smaller, even), `--storyboard-grid` to a sheet: the storyboard's. Listing makes nothing.
final class TrickplayFolder: ImmediateListing, ServerEntry, VersionNode {
    let spot: VersionSpot
    let layout: TrickplayLayout

    static let kind = "trickplay"
    static let madeKinds: [MadeKind] = [.trickplaySheets]
    static let suffix = ".trickplay"

    private init(version: MediaVersion, layout: TrickplayLayout, placement: Placement) {
        spot = VersionSpot(folder: Self.kind, of: version, at: placement)
        self.layout = layout
    }

    /// The trickplay of `version` with the mount's storyboard settings; nil without one (no moving
    /// video, no duration).
    static func folder(of version: MediaVersion, settings: StoryboardSettings, placement: Placement) -> TrickplayFolder? {
        guard let layout = TrickplayLayout(info: version.info, interval: settings.interval, columns: settings.grid.columns,
                                           rows: settings.grid.rows, width: settings.width) else { return nil }
        return TrickplayFolder(version: version, layout: layout, placement: placement)
    }

    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        let name = ServerNames.trickplayFolder(of: film.version.fileName)
        return folder(of: film.version, settings: tree.settings.storyboard, placement: film.placement(of: name)).map { [$0] } ?? []
    }

    static func hasShape(suffix: Name) -> Bool { suffix == Name(Self.suffix) }

    func renewed(in version: MediaVersion, tree: MediaTree) -> TrickplayFolder? {
        Self.folder(of: version, settings: tree.settings.storyboard, placement: placement!)
    }

    private var grid: TrickplayGridFolder { TrickplayGridFolder(folder: self) }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        [try tree.entry(grid)]
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        name == Name(layout.folderName) ? grid : nil
    }
}
