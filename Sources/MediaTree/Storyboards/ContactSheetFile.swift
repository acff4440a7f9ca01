import MediaKit

/// `contact-sheet.jpg`: one picture of the whole film for a person in a file manager: a header
/// (name, duration, size, streams), then `--contact-sheet-grid` keyframes spread over the film,
/// each labelled with its time (`ContactSheetLayout`). `.png` resolves too. Its size is known from
/// the probe; it is made when read. Only for a file with a moving video.
final class ContactSheetFile: MadeFile, MediaFolderEntry {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let layout: ContactSheetLayout
    let format: ImageFormat

    static let kind = "contact-sheet"
    static let stem = MediaFolderNames.contactSheet

    private init(version: MediaVersion, layout: ContactSheetLayout, format: ImageFormat, placement: Placement) {
        self.version = version
        self.layout = layout
        self.format = format
        self.placement = placement
        key = NodeKey(madeFile: Self.kind, version: version, names: [placement.name])
    }

    private static func sheet(_ format: ImageFormat, in folder: MediaFolder, tree: MediaTree) -> ContactSheetFile? {
        let grid = tree.settings.contactSheetGrid
        guard let request = ContactSheetRequest(info: folder.version.info, fileName: folder.version.fileName.escaped,
                                                columns: grid.columns, rows: grid.rows),
              let layout = ContactSheetLayout(request) else { return nil }
        let name = Name(stem + "." + format.fileExtension)
        return ContactSheetFile(version: folder.version, layout: layout, format: format, placement: folder.placement(of: name))
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        sheet(.jpeg, in: folder, tree: tree).map { [$0] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        ImageFormat.allCases.first { Name(stem + "." + $0.fileExtension) == name }.flatMap { sheet($0, in: folder, tree: tree) }
    }

    func size(in tree: MediaTree) throws -> Int { layout.encodedSize(format: format) }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        let request = layout.request
        let (file, media, format) = (version.file, tree.media, format)
        // The header is text from the probe and the file's name: hashed (FNV-1a) into the key.
        var header: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in request.header.joined(separator: "\n").utf8 { header = (header ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let what = "contact-sheet-1 \(request.streamIndex) \(String(request.duration.bitPattern, radix: 16)) "
            + "\(request.columns)x\(request.rows) \(request.width) \(request.tileWidth)x\(request.tileHeight) "
            + "\(format.rawValue) \(String(header, radix: 16))"
        tree.madeImage(what, of: version, size: layout.encodedSize(format: format),
                       shownAs: "\(version.shownAs)/\(placement!.name)", make: {
            MadeImage(bytes: try media.contactSheet(of: file, request: request, format: format))
        }) { reply($0.map(\.bytes)) }
    }
}
