import Foundation
import Glibc
import Testing
import TestSupport

/// What a mount of its own shows: chapter titles in the languages of the mount's options or
/// environment, and images made only when read (counted by the mount's statistics).
@Suite(.mounts) struct ChapterLanguagesTests {
    /// `--languages fr,en`, `--languages de`, and without the option: the environment's languages.
    @Test(arguments: [
        (["--languages", "fr,en"], ["LANG": "C"], "fr"),
        (["--languages", "de"], ["LANG": "fr_FR.UTF-8"], "de"),
        ([], ["LANG": "de_DE.UTF-8"], "de"),
        ([], ["LANGUAGE": "fr:en", "LANG": "C"], "fr"),
        ([], ["LANG": "C"], "none"),
    ] as [([String], [String: String], String)])
    func titlesFollowThePreferredLanguages(_ arguments: [String], _ locale: [String: String], _ expected: String) throws {
        let folder = try TempFolder("chapters-languages")
        defer { folder.remove() }
        try ChapterLibrary.copyChapterMedia(into: folder.path("source"))
        var environment = ProcessInfo.processInfo.environment.filter { !["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].contains($0.key) }
        environment.merge(locale) { $1 }
        try Mount.with(source: folder.path("source"), point: try folder.makeFolder("mnt"), log: folder.path("log"),
                       arguments: arguments, environment: environment) { mount in
            let client = MountedTreeClient(point: mount.point)
            let multilingual = try ChaptersTests.images(client, "multilingual.mkv")
            let twoLanguages = try ChaptersTests.images(client, "two-languages.mp4")
            let expectedMultilingual: [String]
            let expectedTwo: [String]
            switch expected {
            case "fr":
                expectedMultilingual = ["Ouverture", "Le casse ∕ 1re partie", "Préparatifs", "Un titre long", "Intermède 🎬", "Générique"]
                expectedTwo = ["Arrivée", "L'accord ∕ 2e partie", "Départ 🚀"]
            case "de":
                // No German title for the interlude: its undetermined one.
                expectedMultilingual = ["Eröffnung", "Der Coup ∕ Teil 1", "Planung", "Ein langer Titel", "Interlude (und)", "Abspann"]
                expectedTwo = ["Arrival", "The Deal ∕ Part 2", "Departure 🚀"]
            default:
                expectedMultilingual = ["Opening", "The Heist ∕ Part 1", "Planning",
                                        String(ChapterTreeMedia.longTitle.prefix(235)) + "…", "Interlude (und)", "Credits"]
                expectedTwo = ["Arrival", "The Deal ∕ Part 2", "Departure 🚀"]
            }
            let starts = ["01 00h00m00s", "02 00h00m03s", "03 00h00m03s", "04 00h00m05s", "05 00h00m06s", "06 00h00m09s"]
            #expect(multilingual == zip(starts, expectedMultilingual).map { "\($0) \($1).png" }, "\(arguments) \(locale)")
            #expect(twoLanguages == zip(["01 00h00m00s", "02 00h00m04s", "03 00h00m08s"], expectedTwo).map { "\($0) \($1).png" })
            // The chosen title's language, as stored.
            try #require(multilingual.count == 6)
            let language = try client.attributeText("user.mediafs.chapter.language", of: "multilingual.mkv/chapters/" + multilingual[0])
            #expect(language == ["fr": "fr-FR", "de": "de", "none": "en"][expected], "\(language)")
            let interlude = try client.attributeText("user.mediafs.chapter.language", of: "multilingual.mkv/chapters/" + multilingual[4])
            #expect(interlude == (expected == "fr" ? "fr" : "und"))
        }
    }

    /// Listing the folders that hold media files reads no chapters; `ls -lR`, `du` and `find -size`
    /// over the whole mount read them but make no image (thumbnail, chapter image or cover); an
    /// image is made when it is read, or when `getfattr -d` asks for the time of the frame it
    /// shows (the chapter attributes need none), once; the stats on the mount's root count them.
    @Test func imagesAreMadeOnlyWhenRead() throws {
        try LibraryMount.with("chapters-made", arguments: ["--languages", "fr,en"], prepare: ChapterLibrary.addChapterMedia) { library in
            let mount = library.client
            expectSuccess(try Command.run(["ls", "-l", library.mount.point, library.path("chapter-media"), library.path("audio")]))
            var stats = try library.statistics()
            #expect(stats["chapter_lists_read"] == 0 && stats["probes"] ?? 0 > 0, "\(stats)")
            for command in [["ls", "-lR", library.mount.point], ["du", "-s", library.mount.point],
                            ["find", library.mount.point, "-name", "*.png", "-size", "+1k"]] {
                expectSuccess(try Command.run(command, timeout: 120), "\(command)")
            }
            stats = try library.statistics()
            #expect(stats["chapter_lists_read"] ?? 0 >= 10, "\(stats)")
            #expect(stats["chapter_images_made"] == 0 && stats["covers_made"] == 0 && stats["thumbnails_made"] == 0, "\(stats)")

            // `getfattr -d` of a chapter image asks for user.mediafs.time, the time of its frame.
            let opening = "chapter-media/multilingual.mkv/chapters/01 00h00m00s Ouverture.png"
            expectSuccess(try Command.run(["getfattr", "-d", "--absolute-names", library.path(opening)]))
            stats = try library.statistics()
            #expect(stats["chapter_images_made"] == 1 && stats["covers_made"] == 0, "\(stats)")
            #expect(try mount.attributeText("user.mediafs.time", of: opening) == "0.3", "a tenth of the 3 s chapter")

            for _ in 0..<2 { _ = try mount.read("feature-1080p.mp4/chapters/01 00h00m00s Opening.png") }
            _ = try mount.read("feature-1080p.mp4/thumbs/at-1s.png")
            stats = try library.statistics()
            #expect(stats["chapter_images_made"] == 2 && stats["thumbnails_made"] == 1, "made once, then kept: \(stats)")

            // cover.png of three files, cover.jpg of one; the audiobook's chapters share its cover.
            for relative in ["audio/audiobook.m4a", "movie-1080p.mkv", "extra/png-cover.m4a"] {
                _ = try mount.read(relative + "/cover.png")
            }
            _ = try mount.read("audio/audiobook.m4a/cover.jpg")
            for name in try mount.names("audio/audiobook.m4a/chapters") { _ = try mount.read("audio/audiobook.m4a/chapters/" + name) }
            stats = try library.statistics()
            #expect(stats["covers_made"] == 4 && stats["chapter_images_failures"] == 0, "\(stats)")
        }
    }
}
