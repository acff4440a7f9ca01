import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// QuickTime/MP4 chapters read by mediafs itself: chapter text tracks, the chapter image track, Nero chpl.
@Suite struct QuickTimeChapterTests {
    @Test func ffmpegChapterTrack() throws {
        let list = try Chapters.of("ffmetadata.mp4")
        #expect(list.source == .quickTimeTracks)
        #expect(list.editions.count == 1 && list.defaultEditionIndex == 0)
        let chapters = try #require(list.defaultEdition).chapters
        #expect(chapters.map(\.start) == [0, 2.5, 7])
        #expect(chapters.map(\.end) == [2.5, 7, 12])
        #expect(chapters.map(\.texts) == [["Cold open"], ["Act 1 / \"The Call\" 📞"], ["Act 2"]])
        // ffmpeg stores the chapter track's language as Macintosh code 0: English.
        #expect(chapters.allSatisfy { $0.titles.first?.languages == ["eng"] })
        #expect(chapters.allSatisfy { $0.artwork == nil })
        #expect(try Chapters.media.chapterImage(path: FilePath(try ChapterMedia.file("ffmetadata.mp4").path), size: -1, index: 0) == nil)
    }

    @Test func twoChapterTextTracksGiveTwoTitlesPerChapter() throws {
        let chapters = try Chapters.defaultChapters("two-languages.mp4")
        #expect(chapters.map(\.start) == [0, 4, 8])
        #expect(chapters.map(\.end) == [4, 8, 12])
        #expect(chapters.map(\.texts) == [
            ["Arrival", "Arrivée"],
            ["The Deal / Part 2", "L'accord / 2e partie"],   // the French track is UTF-16 with a BOM
            ["Departure 🚀", "Départ 🚀"],
        ])
        // The packed mdhd language, with the elng tag first where the track has one.
        #expect(chapters[0].titles.map(\.languages) == [["eng"], ["fr-CA", "fra"]])
        #expect(chapters[0].bestTitle(preferred: ["fr", "en"])?.text == "Arrivée")
        #expect(chapters[0].bestTitle(preferred: ["fr-FR"])?.language == "fr-CA")
        #expect(chapters[1].bestTitle(preferred: ["de"])?.text == "The Deal / Part 2")
        #expect(chapters[2].bestTitle(preferred: ["en-GB", "fr"])?.text == "Departure 🚀")
    }

    @Test func chapterImagesAreTheSamplesOfTheImageTrack() throws {
        let url = try ChapterMedia.file("two-languages.mp4")
        let chapters = try Chapters.defaultChapters("two-languages.mp4")
        let artwork = chapters.compactMap(\.artwork)
        #expect(artwork.map(\.sample) == [0, 1, 2])
        #expect(artwork.allSatisfy { $0.codec == "png" && $0.trackID == artwork[0].trackID })
        for index in 0..<3 {
            let image = try #require(try Chapters.media.chapterImage(path: FilePath(url.path), size: try Chapters.size(url), index: index))
            let expected = [UInt8](try Data(contentsOf: try ChapterMedia.file("image-\(index + 1).png")))
            #expect(image.codec == "png")
            #expect(image.bytes == expected)
        }
        #expect(try Chapters.media.chapterImage(path: FilePath(url.path), size: try Chapters.size(url), index: 3) == nil)
    }

    @Test func neroChaptersAreTheFallbackWithoutAChapterTrack() throws {
        let list = try Chapters.of("nero-only.m4a")
        #expect(list.source == .neroChpl)
        let chapters = try #require(list.defaultEdition).chapters
        #expect(chapters.map(\.start) == [0, 2.5, 7])
        #expect(chapters[0].end == 2.5 && chapters[1].end == 7)
        #expect(abs(chapters[2].end - 12) < 0.1)  // the movie's duration
        #expect(chapters.map(\.texts) == [["Cold open"], ["Act 1 / \"The Call\" 📞"], ["Act 2"]])
        #expect(chapters.allSatisfy { $0.titles.allSatisfy(\.languages.isEmpty) })
        #expect(chapters[0].bestTitle(preferred: ["fr"])?.text == "Cold open")
    }

    @Test func theAudiobookFixture() throws {
        let url = try TestMedia.file("audio/audiobook.m4a")
        let probed = try Chapters.media.probe(path: FilePath(url.path), size: try Chapters.size(url)).chapters
        let list = try Chapters.ofFixture("audio/audiobook.m4a")
        #expect(list.source == .quickTimeTracks)
        let chapters = try #require(list.defaultEdition).chapters
        #expect(chapters.count == 4)
        #expect(chapters.map { $0.titles.first?.text } == probed.map(\.title))
        for (a, b) in zip(chapters, probed) {
            #expect(abs(a.start - b.start) < 0.001 && abs(a.end - b.end) < 0.001)
        }
        // Its cover art is a `covr` picture, not a chapter image track.
        #expect(chapters.allSatisfy { $0.artwork == nil })
    }

    @Test func theFeatureFixtureWithItsMoovAtTheFront() throws {
        let chapters = try #require(try Chapters.ofFixture("feature-1080p.mp4").defaultEdition).chapters
        #expect(chapters.count == 6)
        #expect(chapters.first?.titles.first?.text == "Opening")
        #expect(chapters.map(\.start) == chapters.map(\.start).sorted())
    }

    @Test func macintoshAndPackedLanguageCodes() {
        #expect(QuickTimeLanguage.code(0) == "eng")
        #expect(QuickTimeLanguage.code(1) == "fra")
        #expect(QuickTimeLanguage.code(0x55C4) == "und")
        #expect(QuickTimeLanguage.code(0x7FFF) == "und")
        let fra = UInt16(6) << 10 | UInt16(18) << 5 | UInt16(1)
        #expect(QuickTimeLanguage.code(fra) == "fra")
        #expect(QuickTimeLanguage.code(0x03FF) == "und")
    }

    @Test func textSamplesInEveryEncoding() {
        let utf8: [UInt8] = [0, 5] + Array("héllo".utf8).prefix(5) + [0, 0, 0, 12] + Array("encd".utf8) + [0, 0, 1, 0]
        #expect(QuickTimeText.decode(utf8) == "héll")
        #expect(QuickTimeText.decode([0, 6, 0xFE, 0xFF, 0, 0x61, 0, 0x62]) == "ab")
        #expect(QuickTimeText.decode([0, 6, 0xFF, 0xFE, 0x61, 0, 0x62, 0]) == "ab")
        #expect(QuickTimeText.decode([0, 200, 0x61]) == "a")   // a length past the sample is cut
        #expect(QuickTimeText.decode([0]) == "")
    }
}
