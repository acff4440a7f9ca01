import MediaKit

/// `chapters.json` (every chapter, every title, the image names) or `chapters.txt` (OGM chapters
/// for mkvmerge and players), rendered once per version (`ChapterDocuments`).
final class ChapterDocumentFile: RenderedFile, VersionNode {
    enum Document: CaseIterable {
        case json, text

        var name: Name { self == .json ? MediaFolderNames.chaptersJSON : MediaFolderNames.chaptersText }
    }

    let spot: VersionSpot
    let document: Document
    let listing: ChapterListing

    static let kind = "chapter-document"

    init(folder: ChaptersFolder, document: Document) {
        spot = VersionSpot(madeFile: Self.kind, named: document.name, in: folder)
        listing = folder.listing
        self.document = document
    }

    var documentName: Name { document.name }
    var holdsOriginalName: Bool { document == .json }
    /// A film without chapters of its own lists those made from its analysis (`FoundChapters`).
    var showsAnalysis: Bool { true }

    var nameAsHeld: String? { document == .json ? version.fileName.escaped : nil }

    func lengthWithoutName(in tree: MediaTree) throws -> Int? {
        document == .json ? try nameless(in: tree)?.lengthWithoutName : nil
    }

    /// The JSON document is the same for every name of a version but for `file`: a version's
    /// other names fill in its `NamelessDocument`.
    func render(in tree: MediaTree) throws -> [UInt8] {
        guard document == .json else { return ChapterDocuments.ogm(listing) }
        let fileName = version.fileName.escaped
        return try nameless(in: tree)?.filled(with: fileName) ?? json(in: tree)(fileName)
    }

    /// The JSON document of an original's name, given it (the names of the images are worked out
    /// first, which may throw: `MediaTree.listedFormat(of:in:)`).
    private func json(in tree: MediaTree) throws -> (String) -> [UInt8] {
        let images = try listing.entries.map { entry in
            try tree.listedFormat(of: entry, in: version).map { entry.name($0).escaped }
        }
        let (listing, preferred) = (listing, tree.settings.preferredLanguages)
        return { ChapterDocuments.json(listing, fileName: $0, preferred: preferred, imageNames: images) }
    }

    /// The JSON document without its name, once per version; nil where it cannot be split.
    private func nameless(in tree: MediaTree) throws -> NamelessDocument? {
        try version.facts.namelessChapters.value { NamelessDocument(try json(in: tree)) }
    }
}
