/// How the tree shows a media file (`--layout`).
public enum TreeLayout: String, Sendable, CaseIterable {
    /// Each media file a folder: the original, `info.json`, pictures, `thumbs/`, `chapters/`,
    /// `storyboard/`, `tracks/` (`MediaFolderEntries`). The default.
    case folders
    /// Each media file a file under its own name, and beside each film the files media servers and
    /// players read by themselves: sidecar subtitles, poster, backdrop, Jellyfin's trickplay, a BIF
    /// (`ServerEntries`).
    case server

    /// The kinds of thing the layout's entries make: those `user.mediafs.stats` counts.
    var madeKinds: [MadeKind] {
        switch self {
        case .folders: MediaFolderEntries.madeKinds
        case .server: ServerEntries.madeKinds
        }
    }
}
