import MediaKit

/// `chapters/`: one image per listed chapter (its artwork, the cover, or a frame near its start),
/// then `chapters.json` and `chapters.txt`. Only for a file whose default edition lists chapters.
final class ChaptersFolder: NamedSubfolder, LastingListing {
    let spot: VersionSpot
    let listing: ChapterListing

    static let madeKinds: [MadeKind] = [.chapterImages, .documents]
    static let name = MediaFolderNames.chapters

    init?(spot: VersionSpot, tree: MediaTree) throws {
        guard let listing = try tree.chapterListing(of: spot.version) else { return nil }
        self.spot = spot
        self.listing = listing
    }

    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        let images: [any TreeNode] = try listing.entries.compactMap { entry in
            try tree.listedFormat(of: entry, in: version).flatMap { try ChapterImageFile(folder: self, entry: entry, format: $0, tree: tree) }
        }
        let documents = ChapterDocumentFile.Document.allCases.map { ChapterDocumentFile(folder: self, document: $0) }
        return try ScannerMarker.entries(in: self, tree: tree) + (images + documents).map { try tree.entry($0) }
    }

    func listsFromMemory(in tree: MediaTree) -> Bool { tree.listsFromMemory(version) }

    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        if let marker = ScannerMarker.file(named: name, in: self) { return marker }
        if let document = ChapterDocumentFile.Document.allCases.first(where: { $0.name == name }) {
            return ChapterDocumentFile(folder: self, document: document)
        }
        guard let (entry, format) = listing.entry(named: name) else { return nil }
        return try ChapterImageFile(folder: self, entry: entry, format: format, tree: tree)
    }
}
