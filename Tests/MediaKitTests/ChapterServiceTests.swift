import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Which reader the service picks, its fallback to libavformat, and the errors it gives.
@Suite struct ChapterServiceTests {
    @Test func otherFormatsGoThroughLibavformat() throws {
        let list = try Chapters.of("id3-chapters.mp3")
        #expect(list.source == .libavformat)
        let chapters = try #require(list.defaultEdition).chapters
        #expect(chapters.map(\.start) == [0, 2.5, 7])
        #expect(chapters.map(\.end) == [2.5, 7, 12])
        #expect(chapters.map { $0.titles.first?.text } == ["Cold open", "Act 1 / \"The Call\" 📞", "Act 2"])
    }

    @Test func filesWithoutChaptersGiveAnEmptyList() throws {
        for path in ["clips/Holiday Café 2021.mp4", "clips/clip-hevc10.mkv", "audio/song.mp3"] {
            let list = try Chapters.ofFixture(path)
            #expect(list.isEmpty, "\(path)")
            #expect(list.defaultEdition == nil, "\(path)")
        }
    }

    @Test(arguments: ["notes.txt", "broken/empty.mp4", "broken/not-a-video.mkv", "broken/cut-header.mp4"])
    func unreadableFilesThrowMediaErrors(_ path: String) throws {
        #expect(throws: MediaError.self) { try Chapters.ofFixture(path) }
    }

    @Test func aMissingFileIsAnIOError() {
        #expect(throws: MediaError.io(function: "open", code: ENOENT)) {
            try Chapters.media.chapters(path: "/nonexistent/film.mkv", size: 10)
        }
    }

    @Test func theListSurvivesJSON() throws {
        for name in ["multilingual.mkv", "two-languages.mp4"] {
            let list = try Chapters.of(name)
            let decoded = try JSONDecoder().decode(ChapterList.self, from: try JSONEncoder().encode(list))
            #expect(decoded == list)
        }
    }
}
