/// What a media file has that decides the entries of its media folder, as the tests know it of
/// the files they make (the test library, `Library.media`; the chapter media, `ChapterMedia.media`;
/// a file one test makes).
public struct MediaFacts: Sendable, Equatable {
    /// A video stream (not only a cover): `contact-sheet.jpg`, `storyboard/` and `thumbs/`.
    public var video: Bool
    /// The chapters `chapters/` lists images for (nil: no chapters, no `chapters/`).
    public var chapters: Int?
    /// The stored cover's name (`cover.jpg` for a JPEG, `cover.png` for a PNG), or nil.
    public var cover: String?
    /// Audio or subtitle streams, or a second video stream: `tracks/`.
    public var tracks: Bool

    public init(video: Bool = true, chapters: Int? = nil, cover: String? = nil, tracks: Bool = true) {
        self.video = video
        self.chapters = chapters
        self.cover = cover
        self.tracks = tracks
    }
}

/// The names a media folder lists: the one place the tests spell them, so that a new kind of entry
/// changes this function and nothing else (the tree lists them in this order:
/// `MediaFolderEntries.kinds`).
public enum MediaFolderLayout {
    /// The names the media folder of the file called `original` lists, in the tree's order.
    public static func names(_ original: String, _ facts: MediaFacts) -> [String] {
        var names = [original, "info.json"]
        if let cover = facts.cover { names.append(cover) }
        if facts.video { names.append("contact-sheet.jpg") }
        if facts.chapters != nil { names.append("chapters") }
        if facts.video { names += ["storyboard", "thumbs"] }
        if facts.tracks { names.append("tracks") }
        if facts.video || facts.cover != nil { names += face }
        return names
    }

    /// `.ignore` (Jellyfin), `.plexignore` (Plex), `.nomedia` (Kodi, Android), in listing order:
    /// first in each of `folders`, keeping a library's scanner out of them.
    public static let markers = [".ignore", ".plexignore", ".nomedia"]

    /// `folder.jpg` and KDE's `.directory`, in listing order: last in a media folder with a cover
    /// or a video, the film's face in file managers.
    public static let face = ["folder.jpg", ".directory"]

    /// Whether `name` is one of the `markers`.
    public static func isMarker(_ name: String) -> Bool { markers.contains(name) }

    /// The names of the folders among them (the rest are files).
    public static let folders: Set<String> = ["chapters", "storyboard", "thumbs", "tracks"]

    /// The same names sorted as `ls` sorts them in the C locale (by bytes).
    public static func sortedNames(_ original: String, _ facts: MediaFacts) -> [String] {
        names(original, facts).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}

/// The test library (`TestMedia`, made by scripts/make-media.sh --small): which of its files are
/// media folders through a mount and what each has, and which stay plain files.
public enum Library {
    /// The media files, by relative path.
    public static let media: [String: MediaFacts] = [
        "feature-1080p.mp4": MediaFacts(chapters: 6),
        "movie-1080p.mkv": MediaFacts(chapters: 8, cover: "cover.jpg"),
        "clips/Holiday Café 2021.mp4": MediaFacts(),
        "clips/clip-vp9.webm": MediaFacts(),
        "clips/clip-hevc10.mkv": MediaFacts(),
        "clips/uhd-4k.mp4": MediaFacts(),
        "clips/hdr-pq.mkv": MediaFacts(),
        "clips/hdr-hlg.mkv": MediaFacts(),
        "clips/portrait-rotated.mp4": MediaFacts(),
        "clips/anamorphic-pal.mpg": MediaFacts(),
        // No video: no thumbs/, storyboard/ or contact sheet; the stored JPEG cover listed as such.
        "audio/audiobook.m4a": MediaFacts(video: false, chapters: 4, cover: "cover.jpg"),
        "series/Season 1/Episode 01.mkv": MediaFacts(),
        "series/Season 1/Extras/trailer.webm": MediaFacts(),
        "broken/feature-truncated.mp4": MediaFacts(chapters: 6),
    ]

    /// The relative paths of the media files, sorted.
    public static let mediaFolders: [String] = media.keys.sorted()

    /// The files that stay plain files (a song without chapters or cover art among them).
    public static let plainFiles = [
        "notes.txt", "poster.jpg", "audio/song.mp3", "broken/empty.mp4", "broken/cut-header.mp4",
        "broken/not-a-video.mkv", "series/Season 1/episode-guide.txt",
    ]

    /// The names the media folder of `relative` lists, in the tree's order.
    public static func folderNames(_ relative: String) -> [String] {
        MediaFolderLayout.names(fileName(relative), media[relative]!)
    }

    /// Where the original of a media file sits through the mount: `Name.ext/Name.ext`.
    public static func original(_ relative: String) -> String {
        relative + "/" + fileName(relative)
    }

    /// The last component of `relative`.
    public static func fileName(_ relative: String) -> String {
        String(relative.split(separator: "/").last ?? Substring(relative))
    }
}

extension ChapterMedia {
    /// Those of the chapter media (scripts/make-chapter-media.sh) whose media folders tests list, by name.
    public static let media: [String: MediaFacts] = [
        "multilingual.mkv": MediaFacts(chapters: 6),
        "two-languages.mp4": MediaFacts(chapters: 3),
        // Its JPEG chapter image track is neither a video nor a track.
        "jpeg-chapter-track.mp4": MediaFacts(chapters: 3),
    ]

    /// The names the media folder of the chapter media file `name` lists, in the tree's order.
    public static func folderNames(_ name: String) -> [String] {
        MediaFolderLayout.names(name, media[name]!)
    }
}
