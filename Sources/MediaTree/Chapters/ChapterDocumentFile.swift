import MediaKit

/// `chapters.json` (every chapter, every title, the image names) or `chapters.txt` (OGM chapters
/// for mkvmerge and players), rendered once per version (`ChapterDocuments`).
final class ChapterDocumentFile: RenderedFile {
    enum Document: CaseIterable {
        case json, text

        var name: Name { self == .json ? MediaFolderNames.chaptersJSON : MediaFolderNames.chaptersText }
    }

    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let document: Document
    let listing: ChapterListing

    static let kind = "chapter-document"

    init(folder: ChaptersFolder, document: Document) {
        version = folder.version
        listing = folder.listing
        self.document = document
        placement = folder.placement(of: document.name)
        key = NodeKey(madeFile: Self.kind, version: version, names: [document.name])
    }

    var documentName: Name { document.name }

    func render(in tree: MediaTree) throws -> [UInt8] {
        guard document == .json else { return ChapterDocuments.ogm(listing) }
        let images = listing.entries.map { entry in
            tree.listedFormat(of: entry, in: version).map { entry.name($0).escaped }
        }
        return ChapterDocuments.json(listing, fileName: version.fileName.escaped,
                                     preferred: tree.settings.preferredLanguages, imageNames: images)
    }
}
