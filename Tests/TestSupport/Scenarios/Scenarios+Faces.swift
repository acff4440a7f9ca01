import Foundation
import Glibc
import Testing

/// What the default layout adds for scanners and file managers: the markers in the folders it
/// makes, and each media folder's face (`folder.jpg`, KDE's `.directory`).
extension ScenarioGroup {
    static let markersAndFaces: [Scenario] = [
        Scenario("the folders mediafs makes hold the markers that keep scanners out") { c throws in
            for folder in ["thumbs", "storyboard", "tracks", "chapters"].map({ "feature-1080p.mp4/" + $0 }) {
                let listed = try c.client.list(folder)
                #expect(listed.prefix(3).map(\.name) == MediaFolderLayout.markers, c.at(folder))
                #expect(try c.readWhole(folder + "/.ignore").isEmpty, c.at(folder + "/.ignore"))
                #expect(try c.readWhole(folder + "/.plexignore") == Array("*\n".utf8), c.at(folder + "/.plexignore"))
                #expect(try c.readWhole(folder + "/.nomedia").isEmpty, c.at(folder + "/.nomedia"))
            }
            // Not in a media folder itself (a scanner must find the original there), nor in tracks/' groups.
            #expect(c.statFailure("feature-1080p.mp4/.nomedia") == ENOENT, c.at("feature-1080p.mp4/.nomedia"))
            #expect(c.statFailure("feature-1080p.mp4/tracks/audible/.ignore") == ENOENT, c.at("audible/.ignore"))
        },

        Scenario("a media folder's face: folder.jpg, the cover or a frame, and .directory naming it") { c throws in
            // The stored cover, byte for byte.
            #expect(try c.readWhole("movie-1080p.mkv/folder.jpg") == (try c.readWhole("movie-1080p.mkv/cover.jpg")),
                    c.at("movie-1080p.mkv/folder.jpg"))
            // No cover: a frame of the film, as JPEG.
            let frame = try c.readWhole("feature-1080p.mp4/folder.jpg")
            #expect(frame.starts(with: Signature.jpeg), c.at("feature-1080p.mp4/folder.jpg"))
            let entry = String(decoding: try c.readWhole("feature-1080p.mp4/.directory"), as: UTF8.self)
            #expect(entry == "[Desktop Entry]\nType=Directory\nName=feature-1080p.mp4\nIcon=./folder.jpg\n",
                    c.at("feature-1080p.mp4/.directory"))
            #expect(try c.readWhole("audio/audiobook.m4a/folder.jpg") == (try c.readWhole("audio/audiobook.m4a/cover.jpg")),
                    c.at("audiobook.m4a/folder.jpg"))
        },
    ]
}
