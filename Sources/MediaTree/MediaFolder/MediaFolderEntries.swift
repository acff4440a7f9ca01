import MediaKit

/// One kind of entry directly in a media folder (the original, `info.json`, the cover, `chapters/`,
/// `thumbs/`, `tracks/`, …): the type that is that entry says which of its kind a version of a
/// media file has, and resolves a name to one.
///
/// To add a kind of entry: write its type (a `MadeFile` or a `MediaSubfolder`) conforming to
/// this, and add it to `MediaFolderEntries.kinds`.
protocol MediaFolderEntry: TreeNode {
    /// The entries of this kind in `folder`, in listing order (most kinds: one or none). Decided
    /// from the probe, the chapter list and at most stored pictures' headers: nothing is made.
    static func listed(in folder: MediaFolder, tree: MediaTree) -> [any TreeNode]

    /// The entry of this kind called `name` in `folder`, listed or not (`thumbs/` is listed, and
    /// `cover.jpg` resolves beside a listed `cover.png`); nil when `name` is none of this kind.
    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) -> (any TreeNode)?
}

/// The kinds of entry of a media folder, in listing order: the one registration line per kind.
enum MediaFolderEntries {
    static let kinds: [any MediaFolderEntry.Type] = [
        OriginalFile.self, InfoFile.self, CoverFile.self, ContactSheetFile.self, ChaptersFolder.self, StoryboardFolder.self,
        ThumbsFolder.self, TracksFolder.self,
    ]
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

    /// The folders of a media folder whose files are made when read (what `mediafs warm` reads).
    public static let madeFolders: [Name] = [chapters, storyboard, thumbs, tracks]
    /// The files directly in a media folder that are made when read and listed by default.
    public static let madeFiles: [Name] = [Name(contactSheet + ".jpg")]
}
