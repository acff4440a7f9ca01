import Foundation
import Glibc
import Testing
import TestSupport

/// chapters/ and the covers through a real mount, in the reader's languages `fr,en`, on the test
/// library with the chapter media (scripts/make-chapter-media.sh) in `chapter-media/` and the media
/// of `ChapterTreeMedia` in `extra/`: what the chapters scenarios (TestSupport/Scenarios) do not
/// cover, the awkward titles, editions, hidden and nested chapters, the frames chosen, stored and
/// converted pictures, and exact sizes for every client.
@Suite(.mounts, .sharedLibraryMount("chapters", arguments: ["--languages", "fr,en"], prepare: ChapterLibrary.addChapterMedia))
struct ChaptersTests {
    /// The chapter images `folder/chapters` lists (`.png`), sorted.
    static func images(_ mount: MountedTreeClient, _ folder: String) throws -> [String] {
        try mount.sortedNames(folder + "/chapters").filter { $0.hasSuffix(".png") }
    }

    // MARK: names

    @Test func namesShowNumberStartAndTitleInOrder() throws {
        let mount = try LibraryMount.shared.client
        // The start in each name is the chapter's start in info.json, in whole seconds.
        let chapters = try #require(try mount.json("feature-1080p.mp4/info.json")["chapters"] as? [[String: Any]])
        let images = try Self.images(mount, "feature-1080p.mp4")
        #expect(images.count == 6 && chapters.count == 6)
        for (chapter, name) in zip(chapters, images) {
            let s = Int(chapter["start"] as? Double ?? -1)
            let start = String(format: "%02dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60)
            #expect(name.split(separator: " ")[1] == start, "\(name): \(chapter)")
        }

        // Titles with "/", quotes, an emoji, a line break and 300 characters; a zero-length
        // chapter; overlapping chapters; a chapter without a title (MKV).
        let awkward = try mount.sortedNames("extra/awkward.mkv/chapters").filter { !MediaFolderLayout.isMarker($0) }
        #expect(awkward == [
            "01 00h00m00s Intro ∕ \"Quotes\" and 'single' 🎬.png",
            "02 00h00m02s Zero length.png",
            "03 00h00m02s " + String(ChapterTreeMedia.longTitle.prefix(235)) + "….png",
            "04 00h00m04s Overlapping; with a line break.png",
            "05 00h00m09s.png",
            "chapters.json", "chapters.txt",
        ])
        #expect(awkward.allSatisfy { $0.utf8.count <= 255 && !$0.contains("/") })
        #expect(awkward.count > 2 && awkward[2].utf8.count == 255)
        #expect(try mount.sortedNames("extra/awkward.mp4/chapters").filter { !MediaFolderLayout.isMarker($0) }.prefix(4) == awkward.prefix(4))

        // Sixty chapters found after the clusters, numbered in order.
        let sixty = try mount.sortedNames("chapter-media/chapters-at-end.mkv/chapters").filter { !MediaFolderLayout.isMarker($0) }
        #expect(sixty.count == 62 && sixty[59].hasPrefix("60 00h00m11s Chapter 60 of sixty"), "\(sixty)")

        // Files without chapters have no chapters/ folder.
        for relative in ["clips/Holiday Café 2021.mp4", "series/Season 1/Episode 01.mkv"] {
            #expect(try !mount.names(relative).contains("chapters"), "\(relative)")
            #expect(mount.failure { () throws(CallError) in try mount.stat(relative + "/chapters") } == ENOENT, "\(relative)")
        }
        // Audio with chapters but no picture at all: the documents, no images.
        #expect(try mount.sortedNames("chapter-media/nero-only.m4a/chapters").filter { !MediaFolderLayout.isMarker($0) } == ["chapters.json", "chapters.txt"])
        #expect(try mount.sortedNames("chapter-media/id3-chapters.mp3/chapters").filter { !MediaFolderLayout.isMarker($0) } == ["chapters.json", "chapters.txt"])
    }

    // MARK: documents

    /// chapters.json's editions, hidden and nested chapters, times and every title; the film's
    /// agrees with its info.json; chapters.txt of awkward titles.
    @Test func chaptersJSONAndText() throws {
        let mount = try LibraryMount.shared.client
        let doc = try mount.json("chapter-media/multilingual.mkv/chapters/chapters.json")
        #expect(doc["default_edition"] as? Int == 1, "\(doc)")
        let editions = try #require(doc["editions"] as? [[String: Any]])
        #expect(editions.map { $0["uid"] as? Int } == [1001, 1002] && editions.map { $0["default"] as? Bool } == [false, true])
        let other = try #require(editions.first?["chapters"] as? [[String: Any]])
        #expect(other.map { $0["uid"] as? Int } == [201, 202] && other.map { $0["start"] as? Double } == [0, 7], "\(other)")
        #expect(other.allSatisfy { $0["number"] == nil }, "numbers in the other edition")
        let used = try #require(editions.last?["chapters"] as? [[String: Any]])
        #expect(used.map { $0["uid"] as? Int } == [11, 12, 121, 122, 1221, 13, 14, 15])
        #expect(used.map { $0["number"] as? Int } == [1, 2, 3, nil, nil, 5, 4, 6])
        #expect(used.map { $0["hidden"] as? Bool } == [false, false, false, true, true, false, false, false])
        #expect(used.map { $0["depth"] as? Int } == [0, 0, 1, 1, 2, 0, 0, 0])
        let listed = try #require(doc["chapters"] as? [[String: Any]])
        #expect(listed.map { $0["start"] as? Double } == [0, 3, 3, 5.5, 6, 9])
        #expect(listed.map { $0["end"] as? Double } == [3, 6, 4.5, 9, 6, 12])
        let opening = try #require(listed.first?["titles"] as? [[String: Any]])
        #expect(opening.map { $0["text"] as? String } == ["Opening", "Ouverture", "Eröffnung"])
        #expect(opening.map { $0["languages"] as? [String] } == [["en", "eng"], ["fr-FR", "fre"], ["de", "ger"]])
        #expect(opening.count > 1 && opening[1]["countries"] as? [String] == ["fr"])
        #expect(listed.count == 6 && listed[5]["enabled"] as? Bool == false)
        let credits = (listed.last?["titles"] as? [[String: Any]] ?? []).compactMap { $0["languages"] as? [String] }
        #expect(credits.contains { $0.contains("spa") && $0.contains("por") }, "\(credits)")

        // The film's chapters.json agrees with its info.json.
        let info = try #require(try mount.json("feature-1080p.mp4/info.json")["chapters"] as? [[String: Any]])
        let film = try #require(try mount.json("feature-1080p.mp4/chapters/chapters.json")["chapters"] as? [[String: Any]])
        for key in ["start", "end"] {
            #expect(film.map { $0[key] as? Double } == info.map { $0[key] as? Double }, "film \(key)s")
        }
        #expect(film.map { $0["title"] as? String } == info.map { $0["title"] as? String }, "film titles")
        // An audio file with no picture lists its chapters without files.
        let nero = try #require(try mount.json("chapter-media/nero-only.m4a/chapters/chapters.json")["chapters"] as? [[String: Any]])
        #expect(nero.count == 3 && nero.allSatisfy { $0["file"] == nil }, "\(nero)")

        // A line break in a title stays on its line; a chapter without a title has an empty name.
        let awkward = String(decoding: try mount.read("extra/awkward.mkv/chapters/chapters.txt"), as: UTF8.self)
        #expect(awkward.contains("CHAPTER04=00:00:04.000\nCHAPTER04NAME=Overlapping; with a line break\n"), "\(awkward)")
        #expect(awkward.hasSuffix("CHAPTER05=00:00:09.000\nCHAPTER05NAME=\n"))
        #expect(awkward.contains("CHAPTER03NAME=" + ChapterTreeMedia.longTitle + "\n"))
    }

    // MARK: attributes

    @Test func extendedAttributesTellTheChapter() throws {
        let mount = try LibraryMount.shared.client
        let long = "extra/awkward.mkv/chapters/" + (try mount.sortedNames("extra/awkward.mkv/chapters").filter { !MediaFolderLayout.isMarker($0) })[2]
        #expect(try mount.attributeText("user.mediafs.chapter.title", of: long) == ChapterTreeMedia.longTitle)
        #expect(try mount.attributeText("user.mediafs.chapter.start", of: long) == "2")
        #expect(try mount.attributeText("user.mediafs.chapter.end", of: long) == "6")
        let untitled = "extra/awkward.mkv/chapters/05 00h00m09s.png"
        #expect(try mount.attributeText("user.mediafs.chapter.title", of: untitled) == "")
        #expect(try mount.attributeText("user.mediafs.chapter.language", of: untitled) == "und")
        let heist = "feature-1080p.mp4/chapters/02 00h00m04s The Heist.png"
        #expect(try mount.attributeText("user.mediafs.chapter.start", of: heist) == "4.775")
        #expect(try mount.attributeText("user.mediafs.chapter.end", of: heist) == "10.05")
        #expect(try mount.attributeText("user.mediafs.chapter.language", of: heist) == "eng")
        let artwork = "chapter-media/two-languages.mp4/chapters/02 00h00m04s L'accord ∕ 2e partie.png"
        #expect(try mount.attributeText("user.mediafs.chapter.image", of: artwork) == "artwork")
        #expect(try mount.attributeText("user.mediafs.chapter.language", of: artwork) == "fr-CA")
        let names = try mount.attributeNames(of: artwork)
        #expect(!names.contains("user.mediafs.time"), "artwork has no frame time: \(names)")
        let book = "audio/audiobook.m4a/chapters/02 00h00m05s Part Two: The Road.png"
        #expect(try mount.attributeText("user.mediafs.chapter.image", of: book) == "cover")
    }
}

/// The chapter media added to a copy of the test library.
enum ChapterLibrary {
    /// Copies the chapter media into `source/chapter-media` and `ChapterTreeMedia` into `source/extra`.
    @Sendable static func addChapterMedia(_ source: String) throws {
        try copyChapterMedia(into: source + "/chapter-media")
        try ChapterTreeMedia.copy(into: source + "/extra")
    }

    static func copyChapterMedia(into destination: String) throws {
        let copy = try Command.run(["cp", "-a", "--", try ChapterMedia.folder().path, destination], timeout: 60)
        guard copy.succeeded else { throw HarnessError("copying the chapter media failed: \(copy)") }
    }
}
