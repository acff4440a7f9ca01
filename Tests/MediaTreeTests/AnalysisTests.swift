import Foundation
import Logging
import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// What the analysis shows and keeps, on the tree: what a version's analysis finds lands in its
/// record and row, shows in `info.json`, `scenes/`, a chapterless film's `chapters/` and the server
/// layout's `.edl`, with exact sizes, is never done again by a remount, and a failure that may pass
/// keeps nothing. The media service's analysis is a stand-in here (`StandInAnalysis`: cuts and
/// segments at known times), so that what the tree does with them is checked alone; MediaKit's
/// SceneTests and SeasonTests check the finding.
@Suite struct AnalysisTests {
    @Test func theAttributeAnalysesAFilmAndItsFolderShowsTheScenes() throws {
        let library = try AnalysisLibrary()
        let tree = library.tree()
        let client = DirectTreeClient(tree)
        let before = try client.read("Film.mkv/info.json")
        #expect(!String(decoding: before, as: UTF8.self).contains("\"scenes\""))
        #expect(try client.list("Film.mkv").map(\.name).contains("scenes") == false)

        let summary = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(String(decoding: summary, as: UTF8.self) == "{\"scenes\":\(StandInAnalysis.cuts.count + 1),\"segments\":[]}\n")
        #expect(library.media.sceneRuns == 1)

        // info.json: every scene's start and first frame, and its listed size its length.
        let info = try client.read("Film.mkv/info.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
        let scenes = try #require(document["scenes"] as? [[String: Any]])
        #expect(scenes.map { $0["frame"] as? Int } == [0] + StandInAnalysis.cuts.map(\.frame))
        #expect(scenes.map { $0["start"] as? Double } == [0] + StandInAnalysis.cuts.map(\.seconds))
        let listed = try client.list("Film.mkv")
        #expect(listed.first { $0.name == "info.json" }?.size == Int64(info.count))

        // scenes/: a picture per scene, named by its start, the same frame as thumbs/ under that name.
        let pictures = try client.list("Film.mkv/scenes").map(\.name).filter { $0.hasSuffix(".png") }
        #expect(pictures == ["at-00m00s.png", "at-01m02.5s.png", "at-04m10.25s.png", "at-06m00.04s.png", "at-08m20s.png"])
        let first = try client.read("Film.mkv/scenes/at-01m02.5s.png")
        #expect(first == (try client.read("Film.mkv/thumbs/at-01m02.5s.png")))
        #expect(try client.list("Film.mkv/scenes").first { $0.name == "at-01m02.5s.png" }?.size == Int64(first.count))
        #expect(String(decoding: try client.extendedAttribute("user.mediafs.time", of: "Film.mkv/scenes/at-01m02.5s.png"), as: UTF8.self) == "62.5")
        #expect(throws: CallError.self) { try client.stat("Film.mkv/scenes/at-01m03s.png") }

        // Asked again: nothing analysed again.
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(library.media.sceneRuns == 1)
    }

    @Test func aFilmWithoutChaptersListsChaptersMadeFromItsScenes() throws {
        let library = try AnalysisLibrary()
        let tree = library.tree(languages: ["de"])
        let client = DirectTreeClient(tree)
        #expect(try client.list("Film.mkv").map(\.name).contains("chapters") == false)
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")

        // Five minutes apart, each at the strongest cut within a minute: near 5:00, 04:10.25 (06:00.04
        // is a minute and more away); the next point, 10:00, is within a minute of the end.
        let names = try client.list("Film.mkv/chapters").map(\.name)
        #expect(names.filter { $0.hasSuffix(".png") } == ["01 00h00m00s Kapitel 1.png", "02 00h04m10s Kapitel 2.png"])
        let chapters = try client.read("Film.mkv/chapters/chapters.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(chapters)) as? [String: Any])
        #expect(document["source"] as? String == "found")
        #expect(String(decoding: try client.extendedAttribute("user.mediafs.chapter.source", of: "Film.mkv/chapters/02 00h04m10s Kapitel 2.png"),
                       as: UTF8.self) == "found")
        #expect(try client.list("Film.mkv/chapters").first { $0.name == "chapters.json" }?.size == Int64(chapters.count))
    }

    @Test func aRemountShowsWhatWasFoundWithoutAnalysingAgain() throws {
        let library = try AnalysisLibrary()
        let first = library.tree()
        _ = try DirectTreeClient(first).extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        let shown = try DirectTreeClient(first).read("Film.mkv/info.json")
        first.flushCaches()
        first.close()

        let again = library.tree()
        let client = DirectTreeClient(again)
        #expect(try client.read("Film.mkv/info.json") == shown)
        #expect(try client.list("Film.mkv").map(\.name).contains("scenes"))
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(library.media.sceneRuns == 1, "the remount analysed the film again")
        #expect(again.statistics.sceneAnalyses.load(ordering: .relaxed) == 0)
    }

    @Test func aFailureThatMayPassKeepsNothing() throws {
        let library = try AnalysisLibrary()
        library.media.failing.store(true, ordering: .relaxed)
        let tree = library.tree()
        let client = DirectTreeClient(tree)
        #expect(throws: CallError.self) { try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv") }
        #expect(!String(decoding: try client.read("Film.mkv/info.json"), as: UTF8.self).contains("\"scenes\""))
        library.media.failing.store(false, ordering: .relaxed)
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
        #expect(String(decoding: try client.read("Film.mkv/info.json"), as: UTF8.self).contains("\"scenes\""))
    }

    @Test func aSeasonShowsItsIntroAndCreditsAsSegmentsChaptersAndAnEDL() throws {
        let library = try AnalysisLibrary()
        let tree = library.tree()
        let client = DirectTreeClient(tree)
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E02.mkv")
        #expect(library.media.fingerprints == 3, "each episode of the season fingerprinted once")
        #expect(library.media.comparisons == 1)

        let info = try client.read("Show/Show S01E02.mkv/info.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
        let segments = try #require(document["segments"] as? [[String: Any]])
        #expect(segments.map { $0["kind"] as? String } == ["intro", "credits"])
        #expect(segments.first?["found_by"] as? String == "shared-audio")
        let chapters = try client.list("Show/Show S01E02.mkv/chapters").map(\.name).filter { $0.hasSuffix(".png") }
        #expect(chapters == ["01 00h00m00s Chapter 1.png", "02 00h00m30s Intro.png", "03 00h01m30s Chapter 2.png",
                             "04 00h04m10s Chapter 3.png", "05 00h10m00s Credits.png", "06 00h11m00s Chapter 4.png"])

        // The other episodes' segments landed with the same comparison: no second one.
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E01.mkv")
        #expect(library.media.comparisons == 1)
        #expect(String(decoding: try client.read("Show/Show S01E01.mkv/info.json"), as: UTF8.self).contains("\"intro\""))

        // The server layout: Kodi's EDL beside each episode, action 3.
        tree.flushCaches()
        let server = DirectTreeClient(library.tree(layout: .server))
        let names = try server.list("Show").map(\.name)
        #expect(names.contains("Show S01E03.edl"))
        #expect(String(decoding: try server.read("Show/Show S01E03.edl"), as: UTF8.self) == "30 90 3\n600 660 3\n")
        let edl = try server.list("Show").first { $0.name == "Show S01E03.edl" }
        #expect(edl?.size == 18, "\(String(describing: edl))")
        #expect(!names.contains("Film.edl"))
    }

    /// An episode whose audio is damaged for good is kept as such: the season is compared without
    /// it, and a remount does not read its audio again.
    @Test func anEpisodeWhoseAudioCannotBeReadIsNotReadAgain() throws {
        let library = try AnalysisLibrary()
        library.media.damagedAudio.withLock { $0 = "Show S01E03.mkv" }
        let first = library.tree()
        _ = try DirectTreeClient(first).extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E02.mkv")
        #expect(library.media.fingerprints == 3)
        #expect(library.media.comparisons == 1)
        #expect(!String(decoding: try DirectTreeClient(first).read("Show/Show S01E03.mkv/info.json"), as: UTF8.self)
            .contains("\"intro\""))
        first.flushCaches()
        first.close()

        let again = library.tree()
        _ = try DirectTreeClient(again).extendedAttribute(MediaTree.analysisAttribute, of: "Show/Show S01E03.mkv")
        #expect(library.media.fingerprints == 3, "the damaged episode's audio was read again")
        #expect(again.statistics.audioFingerprints.load(ordering: .relaxed) == 0)
        #expect(String(decoding: try DirectTreeClient(again).read("Show/Show S01E01.mkv/info.json"), as: UTF8.self)
            .contains("\"intro\""))
    }

    @Test func theBackgroundAnalysesWhatTheMountMeetsAndSaysWhatChanged() throws {
        let library = try AnalysisLibrary()
        var settings = library.settings(layout: .folders)
        settings.analysis = .background
        let tree = MediaTree(sourceRoot: library.source.path, media: library.media, logger: Logger(label: "test"), settings: settings)
        defer { tree.close() }
        let changes = RecordedChanges()
        tree.watchSource(reportingTo: changes)
        let client = DirectTreeClient(tree)
        _ = try client.list("")
        _ = try client.list("Show")
        let landed = Wait.until(30) { changes.paths.isSuperset(of: ["Film.mkv", "Show/Show S01E01.mkv", "Show/Show S01E03.mkv"]) }
        #expect(landed, "changes told: \(changes.paths.sorted())")
        #expect(String(decoding: try client.read("Film.mkv/info.json"), as: UTF8.self).contains("\"scenes\""))
        #expect(Wait.until(30) { library.media.comparisons == 1 })
        #expect(library.media.sceneRuns == 4, "every video once")
    }
}

/// A request waiting for the analysis the background is running does not wait for the background
/// to find the mount quiet: the background no longer pauses for requests while one waits for it.
@Suite struct AnalysisWaitTests {
    @Test func theAttributeDuringTheBackgroundsAnalysisOfTheSameFilmIsAnswered() throws {
        let library = try AnalysisLibrary()
        library.media.slowBackground.store(true, ordering: .relaxed)
        var settings = library.settings(layout: .folders)
        settings.analysis = .background
        let tree = MediaTree(sourceRoot: library.source.path, media: library.media, logger: Logger(label: "test"), settings: settings)
        defer { tree.close() }
        let client = DirectTreeClient(tree)
        _ = try client.list("")
        #expect(Wait.until(30) { library.media.backgroundEntered.load(ordering: .relaxed) })
        // A request in flight all along (a long read, say): the background pauses for it.
        tree.activity.begin()
        defer { tree.activity.end() }
        // Asked on a thread of its own, waited for at most 30 s: a wait for quiet would hang it.
        let answer = Mutex<[UInt8]?>(nil)
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let summary = try? client.extendedAttribute(MediaTree.analysisAttribute, of: "Film.mkv")
            answer.withLock { $0 = summary }
            answered.signal()
        }
        try #require(answered.wait(timeout: .now() + 30) == .success, "the attribute waited for the background to find the mount quiet")
        #expect(String(decoding: answer.withLock { $0 } ?? [], as: UTF8.self).hasPrefix("{\"scenes\":5"))
        #expect(library.media.sceneRuns == 1, "analysed once, by the background")
    }
}
