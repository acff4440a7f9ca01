import MediaKit

/// A made file that is text rendered from its version (`info.json`, `chapters.json`,
/// `chapters.txt`, `storyboard.vtt`, `storyboard.m3u8`): rendered once per version and name, and
/// per original's name where the text holds it (`MediaTree.rendered`). Its length is learnt once
/// per version and kept with the version's listing facts (`ListingFacts`), so a listing after a
/// remount renders nothing: a text holding the original's name once, as one JSON string, is that
/// string's length plus a length the same for every name.
protocol RenderedFile: MadeFile {
    /// The file's name in its folder, which keys its rendering.
    var documentName: Name { get }
    /// Whether the text holds the original's name (`info.json`, `chapters.json`): then each name of
    /// a version (hard links) has its own; otherwise one rendering serves them all.
    var holdsOriginalName: Bool { get }
    /// The original's name as the text holds it, as one JSON string; nil where it holds it
    /// otherwise (each name's text is then rendered for its length).
    var nameAsHeld: String? { get }
    /// The text's length less the JSON string of `nameAsHeld`, worked out from the version alone
    /// (the same for every name); nil where it cannot be.
    func lengthWithoutName(in tree: MediaTree) throws -> Int?
    /// The bytes, from the version alone.
    func render(in tree: MediaTree) throws -> [UInt8]
    /// Whether the text shows what the version's analysis found: its length is then learnt (and
    /// its rendering kept) per analysis (`MediaVersion.analysisStamp`).
    var showsAnalysis: Bool { get }
}

extension RenderedFile {
    var nameAsHeld: String? { nil }
    func lengthWithoutName(in tree: MediaTree) throws -> Int? { nil }
    var showsAnalysis: Bool { false }

    /// The name its length is learnt under in the listing facts: its own, and the analysis's stamp
    /// where it shows one.
    var factName: String {
        let analysis = showsAnalysis ? version.analysisStamp : 0
        return analysis == 0 ? documentName.escaped : documentName.escaped + "#" + String(analysis, radix: 16)
    }

    func size(in tree: MediaTree) throws -> Int { try learntSize(in: tree) }

    /// The length from the listing facts, else rendered once and learnt.
    func learntSize(in tree: MediaTree) throws -> Int {
        let document = factName
        let facts = tree.listingFacts(of: version).snapshot
        guard holdsOriginalName else {
            if let length = facts.documents[document] { return length }
            let length = try tree.renderedSize(recipe, of: version) { try render(in: tree) }
            tree.learn(of: version) { $0.documents[document] = length }
            return length
        }
        guard let name = nameAsHeld else { return try tree.renderedSize(recipe, of: version) { try render(in: tree) } }
        let nameLength = NamelessDocument.jsonString(name).count
        if let length = facts.namedDocuments[document] { return length + nameLength }
        guard let length = try lengthWithoutName(in: tree) else {
            return try tree.renderedSize(recipe, of: version) { try render(in: tree) }
        }
        tree.learn(of: version) { $0.namedDocuments[document] = length }
        return length + nameLength
    }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        reply(Result { try rendered(in: tree) })
    }

    func rendered(in tree: MediaTree) throws -> [UInt8] {
        try tree.rendered(recipe, of: version) { try render(in: tree) }
    }

    var recipe: DocumentRecipe {
        DocumentRecipe(document: documentName, fileName: holdsOriginalName ? version.fileName : Name(bytes: []),
                       analysis: showsAnalysis ? version.analysisStamp : 0)
    }
}
