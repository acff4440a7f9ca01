import Foundation
import Glibc
import Testing
import TestSupport

/// A test's own copy of the test media library, mounted with mediafs, torn down afterwards in every
/// path (unmounted, daemon ended, folder removed).
struct LibraryMount {
    let folder: TempFolder
    let source: String
    let mount: Mount

    /// `mount.path(relative)`.
    func path(_ relative: String) -> String { mount.path(relative) }

    /// Copies the library, mounts it on an empty folder with `arguments`, runs `body`, ends the
    /// mount as `ending` says (by default unmounted and checked: `Mount.finish()`), tears down.
    static func with<T>(_ name: String, arguments: [String] = [], environment: [String: String]? = nil,
                        ending: Mount.Ending = .unmountChecked, prepare: (String) throws -> Void = { _ in },
                        _ body: (LibraryMount) throws -> T) throws -> T {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        try prepare(source)
        let point = try folder.makeFolder("mnt")
        return try Mount.with(source: source, point: point, log: folder.path("mediafs.log"),
                              arguments: arguments, environment: environment, ending: ending) { mount in
            try body(LibraryMount(folder: folder, source: source, mount: mount))
        }
    }
}

/// Runs `command` and records an issue (with its output) when it did not exit 0.
@discardableResult
func expectSuccess(_ result: CommandResult, _ what: String = "",
                   sourceLocation: SourceLocation = #_sourceLocation) -> CommandResult {
    #expect(result.succeeded, "\(what)\n\(result)", sourceLocation: sourceLocation)
    return result
}

/// The relative paths of the regular files of the library that are media folders through the
/// mount (checked by the tests that read them), and those that stay plain files.
enum Library {
    static let mediaFolders = [
        "feature-1080p.mp4", "movie-1080p.mkv", "clips/Holiday Café 2021.mp4", "clips/clip-vp9.webm",
        "clips/clip-hevc10.mkv", "clips/uhd-4k.mp4", "clips/hdr-pq.mkv", "clips/hdr-hlg.mkv", "clips/portrait-rotated.mp4",
        "clips/anamorphic-pal.mpg", "audio/audiobook.m4a", "series/Season 1/Episode 01.mkv",
        "series/Season 1/Extras/trailer.webm", "broken/feature-truncated.mp4",
    ]
    static let plainFiles = [
        "notes.txt", "poster.jpg", "audio/song.mp3", "broken/empty.mp4", "broken/cut-header.mp4",
        "broken/not-a-video.mkv", "series/Season 1/episode-guide.txt",
    ]

    /// Media folders without a video stream, and so without thumbs/.
    static let withoutVideo: Set<String> = ["audio/audiobook.m4a"]
    /// Media folders with chapters/ (and the number of chapters each lists).
    static let chapterCounts: [String: Int] = [
        "feature-1080p.mp4": 6, "movie-1080p.mkv": 8, "audio/audiobook.m4a": 4, "broken/feature-truncated.mp4": 6,
    ]
    /// Media folders with cover.png.
    /// Media files with a cover: all stored JPEGs, so listed as `cover.jpg`.
    static let withCover: Set<String> = ["movie-1080p.mkv", "audio/audiobook.m4a"]

    /// The names a media folder lists, sorted.
    static func folderNames(_ relative: String) -> [String] {
        let name = (relative as NSString).lastPathComponent
        // Every media file of the library has audio, and so tracks/; a video or a cover, and so a
        // face (folder.jpg, and .directory, which `ls` does not show).
        return ([name, "info.json", "tracks", "folder.jpg"] + (withoutVideo.contains(relative) ? [] : ["thumbs", "storyboard", "contact-sheet.jpg"])
            + (chapterCounts[relative] == nil ? [] : ["chapters"]) + (withCover.contains(relative) ? ["cover.jpg"] : [])).sorted()
    }

    /// Where the original of a media file sits through the mount: `Name.ext/Name.ext`.
    static func original(_ relative: String) -> String {
        relative + "/" + (relative as NSString).lastPathComponent
    }
}
