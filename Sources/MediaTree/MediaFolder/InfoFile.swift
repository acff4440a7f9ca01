import MediaKit

/// `info.json`: what the probe found, as one JSON document (`InfoDocument`).
final class InfoFile: RenderedFile, MediaFolderEntry {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey

    static let kind = "info"
    static let madeKinds: [MadeKind] = [.documents]

    init(version: MediaVersion, placement: Placement) {
        self.version = version
        self.placement = placement
        key = NodeKey(madeFile: Self.kind, version: version)
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        [InfoFile(version: folder.version, placement: folder.placement(of: MediaFolderNames.info))]
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        name == MediaFolderNames.info ? listed(in: folder, tree: tree).first : nil
    }

    var documentName: Name { MediaFolderNames.info }
    var holdsOriginalName: Bool { true }

    /// A version's other names reuse its template.
    func render(in tree: MediaTree) throws -> [UInt8] {
        try template(in: tree).document(fileName: version.fileName)
    }

    /// A name that is not UTF-8 goes in twice (escaped, and as `file_bytes`).
    var nameAsHeld: String? { version.fileName.string }

    func lengthWithoutName(in tree: MediaTree) throws -> Int? {
        try template(in: tree).gap?.lengthWithoutName
    }

    private func template(in tree: MediaTree) throws -> InfoDocument.Template {
        try tree.infoTemplates.value(for: version.identity) { InfoDocument.template(version.info) }
    }
}
