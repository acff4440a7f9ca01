import Foundation
@testable import MediaKit
@testable import MediaTree
import Testing
import TestSupport

/// A film's own credits (text on black, `SceneList.endCredits`) on the tree: shown as a segment
/// in `info.json`, a "Credits" chapter of a chapterless film and a line of the server layout's
/// `.edl`; an episode's shared credits go before them; a version analysed before they were looked
/// for is analysed again once, and never after.
@Suite struct FilmCreditsTests {
    static let credits = MediaSegment(kind: .credits, start: 612.48, end: 660, foundBy: .textOnBlack, sharedWith: 0)

    @Test func aFilmShowsItsCreditsOnBlackAsASegmentAChapterAndAnEDL() throws {
        let library = try AnalysisLibrary()
        library.media.endCredits.withLock { $0 = [Self.credits] }
        let tree = library.tree()
        let client = DirectTreeClient(tree)
        let summary = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(String(decoding: summary, as: UTF8.self).contains("\"found_by\":\"text-on-black\""))

        let info = try client.read("Film.mkv/info.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
        let segments = try #require(document["segments"] as? [[String: Any]])
        #expect(segments.count == 1)
        #expect(segments.first?["kind"] as? String == "credits")
        #expect(segments.first?["found_by"] as? String == "text-on-black")
        #expect(segments.first?["start"] as? Double == 612.48 && segments.first?["end"] as? Double == 660)
        #expect(segments.first?["shared_with"] as? Int == 0)
        #expect(try client.list("Film.mkv").first { $0.name == "info.json" }?.size == Int64(info.count))

        // Chapters from the scenes (near 5:00, the strongest cut within a minute) and the credits.
        let chapters = try client.list("Film.mkv/chapters").map(\.name).filter { $0.hasSuffix(".png") }
        #expect(chapters == ["01 00h00m00s Chapter 1.png", "02 00h04m10s Chapter 2.png", "03 00h10m12s Credits.png"])

        tree.flushCaches()
        let server = DirectTreeClient(library.tree(layout: .server))
        #expect(String(decoding: try server.read("Film.edl"), as: UTF8.self) == "612.48 660 3\n")
    }

    @Test func anEpisodeShowsTheCreditsItsSeasonSharesBeforeItsOwn() throws {
        let library = try AnalysisLibrary()
        library.media.endCredits.withLock { $0 = [MediaSegment(kind: .credits, start: 640, end: 700, foundBy: .textOnBlack, sharedWith: 0)] }
        let client = DirectTreeClient(library.tree())
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E02.mkv")
        let info = try client.read("Show/Show S01E02.mkv/info.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
        let segments = try #require(document["segments"] as? [[String: Any]])
        #expect(segments.map { $0["found_by"] as? String } == ["shared-audio", "shared-audio"])
        #expect(segments.map { $0["start"] as? Double } == [30, 600])
    }

    @Test func aVersionAnalysedBeforeCreditsWereLookedForIsAnalysedAgainOnce() throws {
        let library = try AnalysisLibrary()
        library.media.endCredits.withLock { $0 = nil }
        let first = library.tree()
        _ = try DirectTreeClient(first).extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        first.flushCaches()
        #expect(library.media.sceneRuns == 1)

        library.media.endCredits.withLock { $0 = [Self.credits] }
        let second = library.tree()
        let again = DirectTreeClient(second)
        _ = try again.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        second.flushCaches()
        #expect(library.media.sceneRuns == 2)
        #expect(String(decoding: try again.read("Film.mkv/info.json"), as: UTF8.self).contains("text-on-black"))

        _ = try DirectTreeClient(library.tree()).extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(library.media.sceneRuns == 2)
    }
}
