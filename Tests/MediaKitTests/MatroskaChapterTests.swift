import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Matroska chapters read by mediafs itself (scripts/make-chapter-media.sh, chapters-multilingual.xml).
@Suite struct MatroskaChapterTests {
    @Test func editionsKeepTheirFlagsAndTheDefaultIsChosen() throws {
        let list = try Chapters.of("multilingual.mkv")
        #expect(list.source == .matroska)
        #expect(list.editions.map(\.uid) == [1001, 1002])
        #expect(list.editions.map(\.isDefault) == [false, true])
        #expect(list.editions.map(\.isHidden) == [false, false])
        #expect(list.defaultEditionIndex == 1)
        #expect(list.defaultEdition?.uid == 1002)
    }

    @Test func nestedChaptersAreFlattenedInOrderWithTheirTimesAndFlags() throws {
        let chapters = try Chapters.defaultChapters("multilingual.mkv")
        #expect(chapters.map(\.uid) == [11, 12, 121, 122, 1221, 13, 14, 15])
        #expect(chapters.map(\.depth) == [0, 0, 1, 1, 2, 0, 0, 0])
        #expect(chapters.map(\.start) == [0, 3, 3, 4.5, 4.5, 6, 5.5, 9])
        #expect(chapters.map(\.end) == [3, 6, 4.5, 6, 5, 6, 9, 12])
        // 122 is hidden; 1221, inside it, is hidden with it.
        #expect(chapters.map(\.isHidden) == [false, false, false, true, true, false, false, false])
        #expect(chapters.map(\.isEnabled) == [true, true, true, true, true, true, true, false])
        #expect(try #require(try Chapters.of("multilingual.mkv").defaultEdition).visibleChapters.map(\.uid) == [11, 12, 121, 13, 14, 15])
    }

    @Test func zeroLengthAndOverlappingChaptersStayAsStored() throws {
        let chapters = try Chapters.defaultChapters("multilingual.mkv")
        let interlude = try #require(chapters.first { $0.uid == 13 })
        #expect(interlude.start == 6 && interlude.end == 6)
        let long = try #require(chapters.first { $0.uid == 14 })
        #expect(long.start < 6 && long.end > 6)  // overlaps the heist and the interlude
    }

    @Test func everyDisplayIsATitleWithItsLanguagesAsStored() throws {
        let chapters = try Chapters.defaultChapters("multilingual.mkv")
        let opening = chapters[0]
        #expect(opening.texts == ["Opening", "Ouverture", "Eröffnung"])
        // mkvmerge writes the BCP-47 code beside the ISO 639-2 one; BCP-47 comes first.
        #expect(opening.titles.map(\.languages) == [["en", "eng"], ["fr-FR", "fre"], ["de", "ger"]])
        #expect(opening.titles[1].countries == ["fr"])
        #expect(opening.titles.map(\.language) == ["en", "fr-FR", "de"])
        // A display with two ChapLanguage elements.
        let credits = try #require(chapters.first { $0.uid == 15 })
        let creditos = try #require(credits.titles.first { $0.text == "Créditos" })
        #expect(creditos.languages.contains("spa") && creditos.languages.contains("por"))
    }

    @Test func awkwardTitlesComeBackWhole() throws {
        let chapters = try Chapters.defaultChapters("multilingual.mkv")
        #expect(chapters[1].title(in: "eng") == "The Heist / Part 1")
        #expect(chapters[3].title(in: "eng") == "Secret \"double\" and 'single' quotes")
        #expect(chapters[5].title(in: "eng") == "Interlude 🎬")
        #expect(chapters[5].title(in: "fre") == "Intermède 🎬")
        let long = try #require(chapters[6].title(in: "eng"))
        #expect(long.count == 300 && long.hasPrefix("A very long chapter title"))
    }

    @Test func missingEndsComeFromTheNextChapterOrTheDuration() throws {
        let edition = try Chapters.of("multilingual.mkv").editions[0]
        #expect(edition.chapters.map(\.start) == [0, 7])
        #expect(edition.chapters[0].end == 7)
        #expect(abs(edition.chapters[1].end - 12) < 0.2)
    }

    @Test func bestTitleFollowsThePreferredLanguages() throws {
        let chapters = try Chapters.defaultChapters("multilingual.mkv")
        let opening = chapters[0]
        #expect(opening.bestTitle(preferred: ["fr", "en"])?.text == "Ouverture")
        #expect(opening.bestTitle(preferred: ["fr", "en"])?.language == "fr-FR")
        #expect(opening.bestTitle(preferred: ["de"])?.text == "Eröffnung")
        #expect(opening.bestTitle(preferred: ["ger"])?.text == "Eröffnung")
        #expect(opening.bestTitle(preferred: ["ja", "en"])?.text == "Opening")
        #expect(opening.bestTitle(preferred: [])?.text == "Opening")          // no und title: the first
        let interlude = chapters[5]
        #expect(interlude.bestTitle(preferred: ["de"])?.text == "Interlude (und)")  // no German: und
        #expect(interlude.bestTitle(preferred: [])?.text == "Interlude (und)")
        #expect(interlude.bestTitle(preferred: ["fr-CA", "en"])?.text == "Intermède 🎬")
        #expect(chapters[7].bestTitle(preferred: ["pt-BR", "en"])?.text == "Créditos")
    }

    @Test func chaptersAfterTheClustersAreFoundThroughTheSeekHead() throws {
        let url = try ChapterMedia.file("chapters-at-end.mkv")
        let bytes = [UInt8](try Data(contentsOf: url))
        // The fixture really has its Chapters after the first Cluster.
        let firstCluster = try #require(find([0x1F, 0x43, 0xB6, 0x75], in: bytes))
        let chaptersAt = try #require(find([0x10, 0x43, 0xA7, 0x70], in: bytes, from: firstCluster))
        #expect(chaptersAt > firstCluster)

        let chapters = try Chapters.defaultChapters("chapters-at-end.mkv")
        #expect(chapters.count == 60)
        #expect(chapters.last?.texts == ["Chapter 60 of sixty, with a title long enough to fill space"])
        #expect(chapters[1].start == 0.2 && chapters[0].end == 0.2)
        #expect(abs((chapters.last?.end ?? 0) - 12) < 0.2)
    }

    @Test func ffmpegWrittenWebMChapters() throws {
        let list = try Chapters.of("ffmpeg-chapters.webm")
        #expect(list.source == .matroska)
        let chapters = try #require(list.defaultEdition).chapters
        #expect(chapters.map(\.start) == [0, 2.5, 7])
        #expect(chapters.map { $0.titles.first?.text } == ["Cold open", "Act 1 / \"The Call\" 📞", "Act 2"])
    }

    @Test func keepsWhatLibavformatDrops() throws {
        let url = try ChapterMedia.file("multilingual.mkv")
        let probed = try Chapters.media.probe(path: FilePath(url.path), size: try Chapters.size(url))
        let ours = try Chapters.of("multilingual.mkv")
        // libavformat: one title per chapter, editions mixed.
        #expect(probed.chapters.count < ours.editions.map(\.chapters.count).reduce(0, +))
        #expect(ours.defaultEdition?.chapters.allSatisfy { $0.titles.count >= 1 } == true)
    }

    @Test func theFixtureMovieAgreesWithLibavformat() throws {
        let url = try TestMedia.file("movie-1080p.mkv")
        let probed = try Chapters.media.probe(path: FilePath(url.path), size: try Chapters.size(url)).chapters
        let ours = try #require(try Chapters.ofFixture("movie-1080p.mkv").defaultEdition).chapters
        #expect(ours.count == 8)
        #expect(ours.map { $0.titles.first?.text } == probed.map(\.title))
        for (a, b) in zip(ours, probed) {
            #expect(abs(a.start - b.start) < 1e-6 && abs(a.end - b.end) < 1e-6)
        }
    }

    private func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
