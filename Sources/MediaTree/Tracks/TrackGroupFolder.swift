import MediaKit

/// `tracks/audible/`, `legible/` or `visual/`: the group's track files, by stream, those in the
/// reader's best matching language first (`TrackOrder`). Listing runs no pass: its entries carry
/// their name and type only, or their attributes where the pass is remembered or was made in an earlier mount (its sizes known).
///
/// The text read from pictures is slow to make: its files are listed only once their pass is
/// remembered or known from an earlier mount, and only those made (a stream without forced events
/// has no forced file). A lookup of one before runs its pass, as for any track.
final class TrackGroupFolder: ImmediateListing, VersionNode {
    let spot: VersionSpot
    let group: TrackPlan.Group
    let entries: [TrackPlan.Entry]

    static let kind = "track-group"

    private init(version: MediaVersion, group: TrackPlan.Group, entries: [TrackPlan.Entry], placement: Placement) {
        spot = VersionSpot(folder: Self.kind, of: version, at: placement, names: [Name(group.rawValue)])
        self.group = group
        self.entries = entries
    }

    convenience init?(folder: TracksFolder, group: TrackPlan.Group) {
        let entries = folder.plan.entries(in: group)
        guard !entries.isEmpty else { return nil }
        self.init(version: folder.version, group: group, entries: entries, placement: folder.placement(of: Name(group.rawValue)))
    }

    func renewed(in version: MediaVersion, tree: MediaTree) -> TrackGroupFolder? {
        let entries = tree.trackPlan(of: version).entries(in: group)
        return entries.isEmpty ? nil : TrackGroupFolder(version: version, group: group, entries: entries, placement: placement!)
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        let parts = Set(entries.map(TrackSetKey.Part.init))
        let sizes = Dictionary(uniqueKeysWithValues: parts.map { ($0, tree.rememberedTrackSizes($0, of: version)) })
        let family = NodeKey.Family(kind: TrackFile.kind, path: version.path)
        let groupName = Name(group.rawValue)
        return TrackOrder.ordered(entries, preferred: tree.settings.preferredLanguages).compactMap { entry in
            let part = TrackSetKey.Part(entry)
            let size = sizes[part]??[TrackSet.id(group: entry.group, name: entry.name)]
            if part == .read && size == nil { return nil }
            let name = Name(entry.name)
            let hash = family.hash(names: [groupName, name], stamp: version.stamp)
            var attributes = tree.madeFileAttributes(number: NodeKey.number(forHash: hash), stat: version.stat)
            attributes.size = size ?? 0
            return DirectoryEntry(name: name, attributes: attributes, keyHash: hash, nameAndTypeOnly: size == nil)
        }
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        guard let text = name.string, let entry = entries.first(where: { $0.name == text }) else { return nil }
        return TrackFile(folder: self, entry: entry)
    }
}
