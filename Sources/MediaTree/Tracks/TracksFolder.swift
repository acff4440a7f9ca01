import MediaKit

/// `tracks/`: a folder per group that has files (`audible/`, `legible/`, `visual/`). Only for a
/// file with a track to make.
final class TracksFolder: ImmediateListing, NamedSubfolder {
    let spot: VersionSpot
    let plan: TrackPlan

    static let madeKinds: [MadeKind] = [.trackSets, .readTextSets]
    static let name = MediaFolderNames.tracks

    init?(spot: VersionSpot, tree: MediaTree) {
        let plan = tree.trackPlan(of: spot.version)
        guard !plan.isEmpty else { return nil }
        self.spot = spot
        self.plan = plan
    }

    private var groups: [TrackGroupFolder] {
        TrackPlan.Group.allCases.compactMap { TrackGroupFolder(folder: self, group: $0) }
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] { try listing(in: tree).entries }

    /// With the listings of its groups.
    func listing(in tree: MediaTree) throws -> Listing {
        try tree.listing(of: self, leading: ScannerMarker.entries(in: self, tree: tree), nodes: groups)
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        ScannerMarker.file(named: name, in: self) ?? groups.first { $0.placement?.name == name }
    }
}
