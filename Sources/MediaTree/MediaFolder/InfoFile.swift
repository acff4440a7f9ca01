import MediaKit

/// `info.json`: what the probe found, as one JSON document (`InfoDocument`).
final class InfoFile: RenderedFile, MediaFolderEntry, VersionNode {
    let spot: VersionSpot

    static let kind = "info"
    static let madeKinds: [MadeKind] = [.documents]

    init(version: MediaVersion, placement: Placement) {
        spot = VersionSpot(madeFile: Self.kind, of: version, at: placement, names: [])
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

    /// What the version's analysis found is shown.
    var showsAnalysis: Bool { true }

    private func template(in tree: MediaTree) throws -> InfoDocument.Template {
        version.facts.infoTemplate.value(for: version.analysisStamp) {
            InfoDocument.template(version.info, analysis: version.analysis, plan: tree.trackPlan(of: version))
        }
    }
}
