import FuseBridge
import Foundation
import MediaKit
import MediaTree
import Testing
import TestSupport

/// chapters/ and cover.png in the tree: listed and stat'ed without making an image, read once per
/// version of a file, and only when the media folder itself is listed or looked into. The names,
/// documents and images are the chapters scenarios (TestSupport/Scenarios, run here by
/// ScenarioTests and through a mount by MountedScenarioTests).
@Suite struct ChaptersFolderTests {
    static func settings(_ languages: [String]) -> TreeSettings {
        var settings = TreeSettings()
        settings.preferredLanguages = languages
        return settings
    }

    @Test func listingAndStatMakeNoImageAndReadChaptersOnce() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4", "clips/clip-vp9.webm"], chapterFiles: ["multilingual.mkv"],
                                      settings: Self.settings(["fr", "en"]))
        // Listing the folders that hold media files reads no chapters.
        _ = try fixture.numbered.list(NodeKey.rootNumber)
        _ = try fixture.numbered.list(try fixture.lookup("chapters").inode)
        _ = try fixture.numbered.list(try fixture.lookup("clips").inode)
        #expect(fixture.media.chapterReads == 0)

        let chapters = try fixture.lookup("chapters/multilingual.mkv/chapters")
        let listing = try fixture.numbered.list(chapters.inode)
        for entry in listing {
            #expect(try fixture.numbered.lookup(parent: chapters.inode, name: entry.name.escaped) == entry.attributes, "\(entry.name)")
        }
        #expect(fixture.media.thumbnails(of: fixture.path("chapters/multilingual.mkv")) == 0)
        #expect(fixture.media.chapterReads == 1)
        _ = try fixture.numbered.list(chapters.inode)
        _ = try fixture.lookup("chapters/multilingual.mkv/chapters/chapters.json")
        #expect(fixture.media.chapterReads == 1, "read once per version of the file")
        try fixture.touch("chapters/multilingual.mkv")
        _ = try fixture.numbered.list(try fixture.lookup("chapters/multilingual.mkv/chapters").inode)
        #expect(fixture.media.chapterReads == 2, "a changed file is read again")
    }

    /// Stored chapter artwork is served as stored: reading it makes no image and decodes no picture
    /// (its bytes are the chapters scenarios').
    @Test func chapterArtworkIsServedAsStored() throws {
        let fixture = try TreeFixture(files: [], chapterFiles: ["two-languages.mp4"], settings: Self.settings(["fr"]))
        let names = try fixture.numbered.list(try fixture.lookup("chapters/two-languages.mp4/chapters").inode).names
        for name in names.prefix(3) { _ = try fixture.read("chapters/two-languages.mp4/chapters/" + name) }
        #expect(fixture.media.thumbnails(of: fixture.path("chapters/two-languages.mp4")) == 0)
        #expect(fixture.media.stillImages == 0)
    }

    /// The stored JPEG cover is served as stored; `stat` of its PNG form decodes nothing; the
    /// cover is decoded once, for cover.png and every chapter's .png (the listing and the bytes
    /// are the chapters scenarios').
    @Test func anAudiobookDecodesItsCoverOnce() throws {
        let fixture = try TreeFixture(files: ["audio/audiobook.m4a"])
        _ = try fixture.read("audio/audiobook.m4a/cover.jpg")
        #expect(fixture.media.stillImages == 0, "served as stored, not decoded")
        _ = try fixture.lookup("audio/audiobook.m4a/cover.png")
        #expect(fixture.media.stillImages == 0, "stat decodes nothing")
        _ = try fixture.read("audio/audiobook.m4a/cover.png")
        for entry in try fixture.numbered.list(try fixture.lookup("audio/audiobook.m4a/chapters").inode) {
            _ = try fixture.read("audio/audiobook.m4a/chapters/" + entry.name.escaped)
        }
        #expect(fixture.media.stillImages == 1, "the cover is decoded once, for cover.png and every chapter's .png")
    }

    /// Two trees over the same file make the same chapters.json (chapters.txt's exact text and
    /// the documents' fields are the chapters scenarios').
    @Test func documentsAreTheSameInEveryTree() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let json = try fixture.read("feature-1080p.mp4/chapters/chapters.json")
        let other = try TreeFixture(files: ["feature-1080p.mp4"])
        #expect(try other.read("feature-1080p.mp4/chapters/chapters.json") == json)
    }
}
