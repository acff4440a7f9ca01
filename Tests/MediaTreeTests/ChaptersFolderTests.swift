import FuseBridge
import Foundation
import MediaKit
import MediaTree
import Testing
import TestSupport

/// chapters/ and cover.png in the tree: listed and stat'ed without making an image, read once per
/// version of a file, and only when the media folder itself is listed or looked into.
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

        let folder = try fixture.lookup("chapters/multilingual.mkv")
        #expect(try fixture.numbered.list(folder.inode).names
                == ["multilingual.mkv", "info.json", "contact-sheet.jpg", "chapters", "storyboard", "thumbs", "tracks"]
                    + MadeFolderNames.face)
        let chapters = try fixture.lookup("chapters/multilingual.mkv/chapters")
        #expect(chapters.type == .directory && chapters.permissions == 0o555)
        let all = try fixture.numbered.list(chapters.inode)
        #expect(all.prefix(3).map(\.name.escaped) == MadeFolderNames.markers)
        let listing = Array(all.dropFirst(3))
        #expect(listing.map(\.name) == [
            "01 00h00m00s Ouverture.png", "02 00h00m03s Le casse ∕ 1re partie.png", "03 00h00m03s Préparatifs.png",
            "04 00h00m05s Un titre long.png", "05 00h00m06s Intermède 🎬.png", "06 00h00m09s Générique.png",
            "chapters.json", "chapters.txt",
        ])
        for entry in listing {
            let attributes = try fixture.numbered.lookup(parent: chapters.inode, name: entry.name.escaped)
            #expect(attributes == entry.attributes, "\(entry.name)")
            #expect(attributes.type == .regular && attributes.permissions == 0o444 && attributes.size > 0)
        }
        // 160×90 frames (the default 320-wide box never enlarges).
        #expect(listing[0].attributes.size == Int64(PNGEncoder.encodedSize(width: 160, height: 90)))
        #expect(fixture.media.thumbnails(of: fixture.path("chapters/multilingual.mkv")) == 0)
        #expect(fixture.media.chapterReads == 1)
        _ = try fixture.numbered.list(chapters.inode)
        _ = try fixture.lookup("chapters/multilingual.mkv/chapters/chapters.json")
        #expect(fixture.media.chapterReads == 1, "read once per version of the file")
        try fixture.touch("chapters/multilingual.mkv")
        _ = try fixture.numbered.list(try fixture.lookup("chapters/multilingual.mkv/chapters").inode)
        #expect(fixture.media.chapterReads == 2, "a changed file is read again")
    }

    @Test func filesWithoutChaptersHaveNoChaptersFolder() throws {
        let fixture = try TreeFixture(files: ["clips/clip-vp9.webm"])
        let folder = try fixture.lookup("clips/clip-vp9.webm")
        #expect(!(try fixture.numbered.list(folder.inode).map(\.name)).contains("chapters"))
        #expect(throws: TreeError.notFound) { try fixture.numbered.lookup(parent: folder.inode, name: "chapters") }
        #expect(throws: TreeError.notFound) { try fixture.numbered.lookup(parent: folder.inode, name: "cover.png") }
    }

    @Test func namesOutsideTheListingDoNotResolve() throws {
        let fixture = try TreeFixture(files: [], chapterFiles: ["two-languages.mp4"])
        let chapters = try fixture.lookup("chapters/two-languages.mp4/chapters").inode
        for name in ["01 00h00m00s.png", "04 00h00m12s Extra.png", "01 00h00m00s Arrivée.png", "thumbs", "cover.png"] {
            #expect(throws: TreeError.notFound, "\(name)") { try fixture.numbered.lookup(parent: chapters, name: name) }
        }
        #expect(throws: Never.self) { try fixture.numbered.lookup(parent: chapters, name: "01 00h00m00s Arrival.png") }
    }

    @Test func chapterArtworkIsServedAsStored() throws {
        let fixture = try TreeFixture(files: [], chapterFiles: ["two-languages.mp4"], settings: Self.settings(["fr"]))
        let names = try fixture.numbered.list(try fixture.lookup("chapters/two-languages.mp4/chapters").inode).names
            .filter { !MadeFolderNames.isMarker($0) }
        #expect(names == ["01 00h00m00s Arrivée.png", "02 00h00m04s L'accord ∕ 2e partie.png", "03 00h00m08s Départ 🚀.png",
                          "chapters.json", "chapters.txt"])
        for (i, name) in names.prefix(3).enumerated() {
            let path = "chapters/two-languages.mp4/chapters/" + name
            let expected = [UInt8](try Data(contentsOf: try ChapterMedia.file("image-\(i + 1).png")))
            #expect(try fixture.lookup(path).size == Int64(expected.count))
            #expect(try fixture.read(path) == expected)
        }
        #expect(fixture.media.thumbnails(of: fixture.path("chapters/two-languages.mp4")) == 0)
        #expect(fixture.media.stillImages == 0)
    }

    @Test func anAudiobookShowsItsCoverAsEveryChapterImage() throws {
        let fixture = try TreeFixture(files: ["audio/audiobook.m4a"])
        let folder = try fixture.lookup("audio/audiobook.m4a")
        // The cover is a stored JPEG: listed as such, served byte for byte.
        #expect(try fixture.numbered.list(folder.inode).names == ["audiobook.m4a", "info.json", "cover.jpg", "chapters", "tracks"]
                + MadeFolderNames.face)
        let stored = try fixture.read("audio/audiobook.m4a/cover.jpg")
        #expect(stored.starts(with: [0xFF, 0xD8]) && fixture.media.stillImages == 0, "served as stored, not decoded")
        // The other format resolves too: a 600×900 JPEG cover, written as a PNG of that size.
        let cover = try fixture.lookup("audio/audiobook.m4a/cover.png")
        #expect(cover.size == Int64(PNGEncoder.encodedSize(width: 600, height: 900)))
        #expect(fixture.media.stillImages == 0, "stat decodes nothing")
        let png = try fixture.read("audio/audiobook.m4a/cover.png")
        #expect(png.count == Int(cover.size) && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let chapters = try fixture.numbered.list(try fixture.lookup("audio/audiobook.m4a/chapters").inode)
        #expect(chapters.count == 3 + 6)
        for entry in chapters where entry.name.escaped.hasSuffix(".jpg") {
            #expect(try fixture.read("audio/audiobook.m4a/chapters/" + entry.name.escaped) == stored)
            let asPNG = String(entry.name.escaped.dropLast(4)) + ".png"
            #expect(try fixture.read("audio/audiobook.m4a/chapters/" + asPNG) == png)
        }
        #expect(fixture.media.stillImages == 1, "the cover is decoded once, for cover.png and every chapter's .png")
    }

    @Test func documentsAreDeterministicAndExact() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let text = try fixture.read("feature-1080p.mp4/chapters/chapters.txt")
        #expect(String(decoding: text, as: UTF8.self) == """
            CHAPTER01=00:00:00.000
            CHAPTER01NAME=Opening
            CHAPTER02=00:00:04.775
            CHAPTER02NAME=The Heist
            CHAPTER03=00:00:10.050
            CHAPTER03NAME=Rooftop Chase
            CHAPTER04=00:00:15.612
            CHAPTER04NAME=Interlude at the Café
            CHAPTER05=00:00:22.350
            CHAPTER05NAME=Finale
            CHAPTER06=00:00:28.570
            CHAPTER06NAME=Credits

            """)
        let json = try fixture.read("feature-1080p.mp4/chapters/chapters.json")
        #expect(try fixture.lookup("feature-1080p.mp4/chapters/chapters.json").size == Int64(json.count))
        let other = try TreeFixture(files: ["feature-1080p.mp4"])
        #expect(try other.read("feature-1080p.mp4/chapters/chapters.json") == json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let listed = try #require(document["chapters"] as? [[String: Any]])
        #expect(listed.map { $0["number"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(listed.first?["file"] as? String == "01 00h00m00s Opening.png")
        #expect(listed.first?["language"] as? String == "eng")
    }
}
