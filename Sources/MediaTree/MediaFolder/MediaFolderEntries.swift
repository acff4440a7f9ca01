import MediaKit

/// One kind of entry directly in a media folder (the original, `info.json`, the cover, `chapters/`,
/// `thumbs/`, `tracks/`, …): the type that is that entry says which of its kind a version of a
/// media file has, and resolves a name to one.
///
/// To add a kind of entry: write its type (a `MadeFile`, or a `NamedSubfolder`) conforming to
/// this, and add it to `MediaFolderEntries.kinds`; the kinds of thing it makes are counted from
/// there (`madeKinds`).
protocol MediaFolderEntry: TreeNode {
    /// The entries of this kind in `folder`, in listing order (most kinds: one or none). Decided
    /// from the probe, the chapter list and at most stored pictures' headers: nothing is made.
    /// - Throws: where what decides them cannot be read now (a failing disk): the folder's listing
    ///   fails rather than show it without them.
    static func listed(in folder: MediaFolder, tree: MediaTree) throws -> [any TreeNode]

    /// The entry of this kind called `name` in `folder`, listed or not (`thumbs/` is listed, and
    /// `cover.jpg` resolves beside a listed `cover.png`); nil when `name` is none of this kind.
    /// - Throws: as `listed(in:tree:)`.
    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) throws -> (any TreeNode)?

    /// The kinds of made thing entries of this kind make (counted in `user.mediafs.stats`).
    static var madeKinds: [MadeKind] { get }

    /// The names of entries of this kind that `mediafs warm` makes ahead of time: a file it reads,
    /// or a folder every file under which it reads.
    static var warmedNames: [Name] { get }
}

extension MediaFolderEntry {
    static var madeKinds: [MadeKind] { [] }
    static var warmedNames: [Name] { [] }
}

/// The kinds of entry of a media folder, in listing order: the one registration line per kind.
public enum MediaFolderEntries {
    static let kinds: [any MediaFolderEntry.Type] = [
        OriginalFile.self, InfoFile.self, CoverFile.self, ContactSheetFile.self, ChaptersFolder.self, ScenesFolder.self, StoryboardFolder.self,
        ThumbsFolder.self, TracksFolder.self,
        FolderPictureFile.self,
        DesktopEntryFile.self,
    ]

    /// Every kind of made thing the entries make, each once, in the order of `kinds`.
    static let madeKinds: [MadeKind] = kinds.flatMap { $0.madeKinds }.reduce(into: []) { kinds, kind in
        if !kinds.contains(kind) { kinds.append(kind) }
    }

    /// What `mediafs warm` reads in a media folder (`MediaFolderEntry.warmedNames`).
    public static let warmedNames: [Name] = kinds.flatMap { $0.warmedNames }
}

/// The fixed names of a media folder's entries, spelled here only.
public enum MediaFolderNames {
    public static let info: Name = "info.json"
    static let cover = "cover"
    public static let chapters: Name = "chapters"
    public static let thumbs: Name = "thumbs"
    public static let tracks: Name = "tracks"
    public static let storyboard: Name = "storyboard"
    static let contactSheet = "contact-sheet"
    static let chaptersJSON: Name = "chapters.json"
    static let chaptersText: Name = "chapters.txt"
}
