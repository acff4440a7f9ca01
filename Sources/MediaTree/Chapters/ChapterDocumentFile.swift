import MediaKit

/// `chapters.json` (every chapter, every title, the image names) or `chapters.txt` (OGM chapters
/// for mkvmerge and players), rendered once per version (`ChapterDocuments`).
final class ChapterDocumentFile: MadeFile {
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

    func size(in tree: MediaTree) throws -> Int { try rendered(in: tree).count }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        reply(Result { try rendered(in: tree) })
    }

    private func rendered(in tree: MediaTree) throws -> [UInt8] {
        let key = MediaTree.DocumentKey(identity: version.identity, document: document.name, fileName: version.fileName)
        return try tree.documents.value(for: key) {
            guard document == .json else { return ChapterDocuments.ogm(listing) }
            let images = listing.entries.map { entry in
                tree.listedFormat(of: entry, in: version).map { entry.name($0).escaped }
            }
            return ChapterDocuments.json(listing, fileName: version.fileName.escaped,
                                         preferred: tree.settings.preferredLanguages, imageNames: images)
        }
    }
}
