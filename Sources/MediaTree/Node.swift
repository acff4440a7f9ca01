import MediaKit

/// What a node of the virtual tree stands for. `rel` is a path relative to the source root
/// ("" for the root itself), without a leading slash.
///
/// The kind is part of the identity: a source file that turns from media into a plain file (or back)
/// becomes a different node, with a different inode number, so the kernel never sees a node change type.
public enum Node: Hashable, Sendable {
    /// A folder of the source.
    case sourceFolder(rel: String)
    /// A file of the source that is not shown as media: its bytes pass through.
    case plainFile(rel: String)
    /// A media file shown as a folder.
    case mediaFolder(rel: String)
    /// Inside a media folder: the original file under its own name.
    case original(rel: String)
    /// Inside a media folder: `info.json`.
    case info(rel: String)
    /// Inside a media folder: `cover.png`, the file's cover art.
    case cover(rel: String)
    /// Inside a media folder: `chapters/`.
    case chaptersFolder(rel: String)
    /// Inside `chapters/`: one chapter's image, by its file name.
    case chapterImage(rel: String, name: String)
    /// Inside `chapters/`: `chapters.json`.
    case chaptersJSON(rel: String)
    /// Inside `chapters/`: `chapters.txt`.
    case chaptersText(rel: String)
    /// Inside a media folder: `thumbs/`.
    case thumbsFolder(rel: String)
    /// Inside `thumbs/`: one image, by the name it was asked by (several names may mean one image).
    case thumbnail(rel: String, name: String)
    /// Inside a media folder: `tracks/`.
    case tracksFolder(rel: String)
    /// Inside `tracks/`: `audible/`, `legible/` or `visual/`.
    case trackGroup(rel: String, group: TrackPlan.Group)
    /// Inside a group's folder: one track file, by its name in the file's `TrackPlan`.
    case track(rel: String, group: TrackPlan.Group, name: String)

    /// The source path this node is made from.
    public var rel: String {
        switch self {
        case .sourceFolder(let rel), .plainFile(let rel), .mediaFolder(let rel), .original(let rel), .info(let rel),
             .cover(let rel), .chaptersFolder(let rel), .chapterImage(let rel, _), .chaptersJSON(let rel),
             .chaptersText(let rel), .thumbsFolder(let rel), .thumbnail(let rel, _),
             .tracksFolder(let rel), .trackGroup(let rel, _), .track(let rel, _, _):
            return rel
        }
    }

    public var isDirectory: Bool {
        switch self {
        case .sourceFolder, .mediaFolder, .chaptersFolder, .thumbsFolder: return true
        case .plainFile, .original, .info, .cover, .chapterImage, .chaptersJSON, .chaptersText, .thumbnail: return false
        case .tracksFolder, .trackGroup: return true
        case .track: return false
        }
    }

    /// Whether the node's content is a file the kernel may read directly (FUSE passthrough): the
    /// source's own files and the extracted tracks. Such a node gets a number per source file (see
    /// `InodeTable.number(for:file:)`).
    public var isPassedThrough: Bool {
        switch self {
        case .plainFile, .original, .track: return true
        case .sourceFolder, .mediaFolder, .info, .cover, .chaptersFolder, .chapterImage, .chaptersJSON, .chaptersText,
             .thumbsFolder, .thumbnail, .tracksFolder, .trackGroup:
            return false
        }
    }
}

/// Path helpers for `rel` strings.
enum RelPath {
    static func join(_ parent: String, _ name: String) -> String {
        parent.isEmpty ? name : parent + "/" + name
    }

    static func lastComponent(_ rel: String) -> String {
        rel.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? rel
    }
}
