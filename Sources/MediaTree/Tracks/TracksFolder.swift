import MediaKit

/// `tracks/`: a folder per group that has files (`audible/`, `legible/`, `visual/`). Only for a
/// file with a track to make.
final class TracksFolder: ImmediateListing, MediaFolderEntry {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let plan: TrackPlan

    static let kind = "tracks"
    static let madeKinds: [MadeKind] = [.trackSets]
    static let warmedNames: [Name] = [MediaFolderNames.tracks]

    private init(version: MediaVersion, plan: TrackPlan, placement: Placement) {
        self.version = version
        self.plan = plan
        self.placement = placement
        key = NodeKey(kind: Self.kind, path: version.path)
    }

    static func folder(of version: MediaVersion, tree: MediaTree, placement: Placement) -> TracksFolder? {
        let plan = tree.trackPlan(of: version)
        return plan.isEmpty ? nil : TracksFolder(version: version, plan: plan, placement: placement)
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        Self.folder(of: folder.version, tree: tree, placement: folder.placement(of: MediaFolderNames.tracks)).map { [$0] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        name == MediaFolderNames.tracks ? listed(in: folder, tree: tree).first : nil
    }

    func renewed(in version: MediaVersion, tree: MediaTree) -> TracksFolder? {
        Self.folder(of: version, tree: tree, placement: placement!)
    }

    private var groups: [TrackGroupFolder] {
        TrackPlan.Group.allCases.compactMap { TrackGroupFolder(folder: self, group: $0) }
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        try ScannerMarker.entries(in: self, tree: tree) + groups.map { try tree.entry($0) }
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        ScannerMarker.file(named: name, in: self) ?? groups.first { $0.placement?.name == name }
    }
}
