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
    var holdsOriginalName: Bool { document == .json }

    var nameAsHeld: String? { document == .json ? version.fileName.escaped : nil }

    func lengthWithoutName(in tree: MediaTree) throws -> Int? {
        document == .json ? try nameless(in: tree)?.lengthWithoutName : nil
    }

    /// The JSON document is the same for every name of a version but for `file`: a version's
    /// other names fill in its `NamelessDocument`.
    func render(in tree: MediaTree) throws -> [UInt8] {
        guard document == .json else { return ChapterDocuments.ogm(listing) }
        let fileName = version.fileName.escaped
        return try nameless(in: tree)?.filled(with: fileName) ?? json(fileName, in: tree)
    }

    /// The JSON document of the original's name `fileName`.
    private func json(_ fileName: String, in tree: MediaTree) -> [UInt8] {
        let images = listing.entries.map { entry in
            tree.listedFormat(of: entry, in: version).map { entry.name($0).escaped }
        }
        return ChapterDocuments.json(listing, fileName: fileName, preferred: tree.settings.preferredLanguages,
                                     imageNames: images)
    }

    /// The JSON document without its name, once per version; nil where it cannot be split.
    private func nameless(in tree: MediaTree) throws -> NamelessDocument? {
        try tree.namelessChapterDocuments.value(for: version.identity) { NamelessDocument { json($0, in: tree) } }
    }
}
