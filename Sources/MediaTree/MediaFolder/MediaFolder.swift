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

    func list(in tree: MediaTree) throws -> [DirectoryEntry] { try listing(in: tree).entries }

    func listsFromMemory(in tree: MediaTree) -> Bool { tree.listsFromMemory(version) }

    /// With the listings of its subfolders (`chapters/`, `thumbs/`, `tracks/`, …).
    func listing(in tree: MediaTree) throws -> Listing {
        tree.listedMediaFolders.withLock { _ = $0.insert(key.stableHash) }
        return try tree.listing(of: self, nodes: MediaFolderEntries.kinds.flatMap { try $0.listed(in: self, tree: tree) })
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        for kind in MediaFolderEntries.kinds {
            if let found = try kind.resolve(name, in: self, tree: tree) { return found }
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

    /// The listing of the media folder `node`, made with its source folder's (a first listing
    /// after a remount: `ls -R`, a file manager and a media server's scan open it next, and the
    /// listings are made side by side in the folder's fan-out), where it lists from memory and was
    /// not listed before in this mount (whoever listed it keeps that listing). Nil otherwise.
    func listingAhead(of node: any TreeNode) -> Listing? {
        guard let folder = node as? MediaFolder, !listedMediaFolders.withLock({ $0.contains(folder.key.stableHash) }),
              listsFromMemory(folder.version) else { return nil }
        return try? folder.listing(in: self)
    }

    /// The listing of `folder`: `leading` entries, then an entry per node of `nodes`, with the
    /// listing of each lasting folder among them made now (`Listing.sublistings`; whoever keeps
    /// listings keeps the lasting ones). One that fails is left out, and fails when opened.
    func listing(of folder: some LastingListing, leading: [DirectoryEntry] = [], nodes: [any TreeNode]) throws -> Listing {
        var listing = Listing(entries: leading, source: ListingSource(folder))
        listing.entries.reserveCapacity(leading.count + nodes.count)
        for node in nodes {
            // Files first ruled out by their kind: a cast that fails looks through every conformance.
            if node.isFolder, let subfolder = node as? any LastingListing, let made = try? subfolder.listing(in: self) {
                listing.sublistings.append(Sublisting(index: listing.entries.count, key: subfolder.key, listing: made))
            }
            listing.entries.append(try entry(node))
        }
        return listing
    }
}
