import MediaKit

/// A media file shown as a folder: its entries are the kinds `MediaFolderEntries.kinds` lists.
final class MediaFolder: LastingListing, ImmediateAttributes, VersionNode {
    let spot: VersionSpot

    static let kind = "media"

    init(version: MediaVersion, placement: Placement) {
        spot = VersionSpot(folder: Self.kind, of: version, at: placement)
    }

    /// Still media: itself, or the folder of the new version.
    func current(in tree: MediaTree) throws -> any TreeNode {
        let now = try tree.currentVersion(of: version)
        return now === version ? self : MediaFolder(version: now, placement: placement!)
    }

    func attributes(in tree: MediaTree) throws -> Attributes {
        tree.madeFolderAttributes(of: self, stat: version.stat)
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        try MediaFolderEntries.kinds.flatMap { $0.listed(in: self, tree: tree) }.map { try tree.entry($0) }
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        for kind in MediaFolderEntries.kinds {
            if let found = kind.resolve(name, in: self, tree: tree) { return found }
        }
        return nil
    }

    /// Where an entry of this folder called `name` is listed.
    func placement(of name: Name) -> Placement { Placement(parent: key, name: name) }
}

extension MediaTree {
    /// A listed node as a directory entry, with its attributes (known at once for every node a
    /// listing holds but track files, which `TrackGroupFolder` lists by name and type).
    func entry(_ node: any TreeNode) throws -> DirectoryEntry {
        guard let immediate = node as? any ImmediateAttributes, let placement = node.placement else {
            throw TreeError.io(path: "\(node.key.path)", reason: "a listed entry without attributes")
        }
        return DirectoryEntry(name: placement.name, attributes: try immediate.attributes(in: self), keyHash: node.key.stableHash)
    }
}
