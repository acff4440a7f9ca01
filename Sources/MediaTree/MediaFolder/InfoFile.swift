import MediaKit

/// `info.json`: what the probe found, as one JSON document (`InfoDocument`).
final class InfoFile: MadeFile, MediaFolderEntry {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey

    static let kind = "info"

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

    func size(in tree: MediaTree) throws -> Int { try document(in: tree).count }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        reply(Result { try document(in: tree) })
    }

    /// Rendered once per version and name (a version's other names reuse its template).
    private func document(in tree: MediaTree) throws -> [UInt8] {
        let name = version.fileName
        return try tree.documents.value(for: .init(identity: version.identity, document: MediaFolderNames.info, fileName: name)) {
            try tree.infoTemplates.value(for: version.identity) { InfoDocument.template(version.info) }
                .document(fileName: name)
        }
    }
}
