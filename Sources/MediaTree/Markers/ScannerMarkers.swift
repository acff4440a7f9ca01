import MediaKit

/// The files that keep media scanners out of a folder mediafs makes (`thumbs/`, `storyboard/`,
/// `tracks/`, `chapters/`), so that a library pointed at the default layout does not take made
/// images for photos nor made track files for films (Docs/LAYOUT.md, "Markers that keep scanners
/// out"): `.ignore` (Jellyfin: present, or from 10.11 empty, ignores all), `.plexignore` (Plex: a
/// `*` pattern; an empty one ignores nothing), `.nomedia` (Kodi, Android's media scanner). Listed
/// first in each such folder.
enum ScannerMarker: CaseIterable {
    case jellyfin, plex, kodi

    var name: Name {
        switch self {
        case .jellyfin: ".ignore"
        case .plex: ".plexignore"
        case .kodi: ".nomedia"
        }
    }

    var bytes: [UInt8] { self == .plex ? Array("*\n".utf8) : [] }

    /// Every marker of `folder`, as listed entries: each entry's key hashed as `MarkerFile`'s, with
    /// no node made (every folder of a media folder lists them).
    static func entries(in folder: some MediaSubfolder, tree: MediaTree) -> [DirectoryEntry] {
        let version = folder.version
        let family = NodeKey.Family(kind: MarkerFile.kind, path: version.path)
        let folderKind = Name(folder.key.kind)
        return allCases.map { marker in
            let hash = family.hash(names: [folderKind, marker.name], stamp: version.stamp)
            var attributes = tree.madeFileAttributes(number: NodeKey.number(forHash: hash), stat: version.stat)
            attributes.size = Int64(marker.bytes.count)
            return DirectoryEntry(name: marker.name, attributes: attributes, keyHash: hash)
        }
    }

    /// The marker of `folder` called `name`, or nil.
    static func file(named name: Name, in folder: some MediaSubfolder) -> MarkerFile? {
        allCases.first { $0.name == name }.map { MarkerFile(folder: folder, marker: $0) }
    }
}

/// One marker in a made folder: its few bytes, a file of the folder's version.
final class MarkerFile: MadeFile {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let marker: ScannerMarker

    static let kind = "marker"

    init(folder: some MediaSubfolder, marker: ScannerMarker) {
        version = folder.version
        self.marker = marker
        placement = folder.placement(of: marker.name)
        key = NodeKey(madeFile: Self.kind, version: version, names: [Name(folder.key.kind), marker.name])
    }

    func size(in tree: MediaTree) throws -> Int { marker.bytes.count }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) { reply(.success(marker.bytes)) }
}
