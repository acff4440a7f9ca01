import Foundation
import Glibc
import Testing
import TestSupport

/// A media scanner's view of the default layout: a walk that honours one server's marker (Jellyfin's
/// `.ignore`, Plex's `.plexignore`, Kodi's `.nomedia`) finds, through a mount of the test library,
/// exactly one video per film, the original, and no made track file, whichever marker it honours.
@Suite(.mounts, .sharedLibraryMount("scanner-view")) struct ScannerViewTests {
    /// The rule by which a scanner leaves a folder out.
    enum Scanner: String, CaseIterable {
        case jellyfin, plex, kodi

        /// Whether a folder holding `names` (its entries; `read` gives a file's text) is left out.
        func skips(_ names: Set<String>, read: (String) -> String) -> Bool {
            switch self {
            // Jellyfin up to 10.10: a folder holding `.ignore`; from 10.11 an empty one ignores all.
            case .jellyfin: names.contains(".ignore") && read(".ignore").isEmpty
            // Plex: patterns; `*` matches everything below.
            case .plex: names.contains(".plexignore") && read(".plexignore").split(separator: "\n").contains("*")
            case .kodi: names.contains(".nomedia")
            }
        }
    }

    static let videoExtensions: Set<String> = [
        "mkv", "mp4", "m4v", "mov", "webm", "avi", "ts", "m2ts", "mts", "mpg", "mpeg", "vob", "wmv", "flv", "ogv", "3gp",
    ]
    static let audioExtensions: Set<String> = ["mka", "m4a", "m4b", "mp3", "flac", "ogg", "opus", "wav", "aac"]

    /// Every file with an extension in `extensions` a scanner finds under `root`, skipping hidden
    /// names (as they all do) and the folders its marker leaves out; paths relative to `root`.
    static func walk(_ root: String, _ scanner: Scanner, extensions: Set<String>) throws -> Set<String> {
        var found: Set<String> = []
        var folders = [""]
        while let folder = folders.popLast() {
            let path = folder.isEmpty ? root : root + "/" + folder
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: path))
            if scanner.skips(names, read: { (try? String(contentsOfFile: path + "/" + $0, encoding: .utf8)) ?? "?" }) { continue }
            for name in names where !name.hasPrefix(".") {
                let relative = folder.isEmpty ? name : folder + "/" + name
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder)
                if isFolder.boolValue {
                    folders.append(relative)
                } else if extensions.contains((name as NSString).pathExtension.lowercased()) {
                    found.insert(relative)
                }
            }
        }
        return found
    }

    @Test func eachScannerFindsOneVideoPerFilmAndNoMadeTrack() throws {
        let library = try LibraryMount.shared
        // What the source holds, as the mount shows it: a media file is a folder holding its original.
        func shown(_ relative: String) -> String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: library.path(relative), isDirectory: &isFolder)
            return isFolder.boolValue ? relative + "/" + (relative as NSString).lastPathComponent : relative
        }
        for scanner in Scanner.allCases {
            let videos = try Self.walk(library.mount.point, scanner, extensions: Self.videoExtensions)
            let sourceVideos = try Self.walk(library.source, scanner, extensions: Self.videoExtensions)
            #expect(videos == Set(sourceVideos.map(shown)), "\(scanner): \(videos.subtracting(sourceVideos.map(shown)).sorted())")
            let audio = try Self.walk(library.mount.point, scanner, extensions: Self.audioExtensions)
            let sourceAudio = try Self.walk(library.source, scanner, extensions: Self.audioExtensions)
            #expect(audio == Set(sourceAudio.map(shown)), "\(scanner): \(audio.subtracting(sourceAudio.map(shown)).sorted())")
        }
        // What the markers keep out is there: the made audio tracks.
        #expect(FileManager.default.fileExists(atPath: library.path("movie-1080p.mkv/tracks/audible/deu German Opus stereo [Deutsch].mka")))
    }
}
