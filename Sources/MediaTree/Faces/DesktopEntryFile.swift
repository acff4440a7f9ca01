import MediaKit

/// `.directory`: KDE's folder settings, naming `folder.jpg` as the folder's icon
/// (`Icon=./folder.jpg`, a path relative to the folder, as KIO reads it), so Dolphin shows each
/// film's folder with its face. Also `Type=Directory` and the folder's `Name=`, which the Desktop
/// Entry Specification asks of such a file (`desktop-file-validate` accepts all but the relative
/// icon, which KDE documents). Only beside a `folder.jpg`.
final class DesktopEntryFile: RenderedFile, MediaFolderEntry {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey

    static let kind = "desktop-entry"
    static let name: Name = ".directory"
    static let madeKinds: [MadeKind] = [.documents]

    private init(version: MediaVersion, placement: Placement) {
        self.version = version
        self.placement = placement
        key = NodeKey(madeFile: Self.kind, version: version)
    }

    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode] {
        guard FolderPictureFile.recipe(of: folder.version, tree: tree) != nil else { return [] }
        return [DesktopEntryFile(version: folder.version, placement: folder.placement(of: name))]
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)? {
        name == Self.name ? listed(in: folder, tree: tree).first : nil
    }

    var documentName: Name { Self.name }
    var holdsOriginalName: Bool { true }

    /// Its length from the name alone: a listing, after a remount too, renders nothing.
    func size(in tree: MediaTree) throws -> Int { text.utf8.count }

    func render(in tree: MediaTree) throws -> [UInt8] { Array(text.utf8) }

    private var text: String {
        "[Desktop Entry]\nType=Directory\nName=\(Self.escaped(version.fileName))\nIcon=./\(FolderPictureFile.name)\n"
    }

    /// A name as a desktop entry's string value: UTF-8 (a name that is not is escaped, `\xHH`), with
    /// `\`, line breaks and tabs escaped as the specification says.
    static func escaped(_ name: Name) -> String {
        // Most names are UTF-8 holding none of those: taken as they are, not rebuilt a character at a time.
        if let text = name.string, !name.bytes.contains(where: { $0 == 0x5C || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return text
        }
        return name.escaped.reduce(into: "") { text, character in
            switch character {
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default: text.append(character)
            }
        }
    }
}
