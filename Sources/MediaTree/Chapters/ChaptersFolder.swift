import MediaKit

/// `chapters/`: one image per listed chapter (its artwork, the cover, or a frame near its start),
/// then `chapters.json` and `chapters.txt`. Only for a file whose default edition lists chapters.
final class ChaptersFolder: MediaSubfolder, LastingListing, MediaFolderEntry {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let listing: ChapterListing

    static let kind = "chapters"
    static let madeKinds: [MadeKind] = [.chapterImages, .documents]
    static let warmedNames: [Name] = [MediaFolderNames.chapters]

    private init(version: MediaVersion, listing: ChapterListing, placement: Placement) {
        self.version = version
        self.listing = listing
        self.placement = placement
        key = NodeKey(kind: Self.kind, path: version.path)
    }

    static func folder(of version: MediaVersion, tree: MediaTree, placement: Placement) -> ChaptersFolder? {
        tree.chapterListing(of: version).map { ChaptersFolder(version: version, listing: $0, placement: placement) }
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        Self.folder(of: folder.version, tree: tree, placement: folder.placement(of: MediaFolderNames.chapters)).map { [$0] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        name == MediaFolderNames.chapters ? listed(in: folder, tree: tree).first : nil
    }

    func renewed(in version: MediaVersion, tree: MediaTree) -> ChaptersFolder? {
        Self.folder(of: version, tree: tree, placement: placement!)
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        let images: [any TreeNode] = listing.entries.compactMap { entry in
            tree.listedFormat(of: entry, in: version).flatMap { ChapterImageFile(folder: self, entry: entry, format: $0, tree: tree) }
        }
        let documents = ChapterDocumentFile.Document.allCases.map { ChapterDocumentFile(folder: self, document: $0) }
        return try ScannerMarker.entries(in: self, tree: tree) + (images + documents).map { try tree.entry($0) }
    }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        if let marker = ScannerMarker.file(named: name, in: self) { return marker }
        if let document = ChapterDocumentFile.Document.allCases.first(where: { $0.name == name }) {
            return ChapterDocumentFile(folder: self, document: document)
        }
        guard let (entry, format) = listing.entry(named: name) else { return nil }
        return ChapterImageFile(folder: self, entry: entry, format: format, tree: tree)
    }
}
