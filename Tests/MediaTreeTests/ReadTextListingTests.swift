import Foundation
import Logging
@testable import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// When the text read from pictures is listed, on the tree: never before its pass ran, a lookup
/// runs it, a forced file that failed for good is never listed; the analysis runs it and lands it
/// (`info.json`), a remount reads nothing again; the server layout's read sidecars. The reading is
/// a stand-in (`StandInReading`), so that what the tree does is checked alone: the server test
/// film's Spanish PGS track (stream 8) reads as one cue, and has no forced events; so does its
/// Italian DVD track (stream 9).
@Suite struct ReadTextListingTests {
    static let folder = "subtitled.mkv/tracks/legible/"
    static let read = "spa Spanish PGS (read from pictures).srt"
    static let forced = "spa Spanish PGS (forced, read from pictures).srt"

    @Test func listedOnlyOnceReadAndALookupReadsIt() throws {
        let library = try ReadingLibrary()
        let client = DirectTreeClient(library.tree())
        let before = try client.list(Self.folder).map(\.name)
        #expect(before.contains("spa Spanish PGS.sup"))
        #expect(!before.contains(Self.read) && !before.contains(Self.forced))
        // The other tracks' pass reads no picture.
        _ = try client.stat(Self.folder + "spa Spanish PGS.sup")
        #expect(library.media.readPasses == 0)

        // A lookup before: the reading runs then, and answers with the exact size.
        let status = try client.stat(Self.folder + Self.read)
        #expect(library.media.readPasses == 1)
        #expect(status.size == Int64(StandInReading.text.utf8.count))
        #expect(try client.read(Self.folder + Self.read) == Array(StandInReading.text.utf8))
        let after = try client.list(Self.folder)
        #expect(after.first { $0.name == Self.read }?.size == status.size)
        // No forced events: never listed, and its name is none.
        #expect(!after.map(\.name).contains(Self.forced))
        #expect(throws: CallError(code: ENOENT, call: "stat \(Self.folder + Self.forced)", detail: "")) {
            try client.stat(Self.folder + Self.forced)
        }
        #expect(library.media.readPasses == 1)
    }

    @Test func theAnalysisReadsItAndARemountReadsNothing() throws {
        let library = try ReadingLibrary()
        let first = library.tree()
        let client = DirectTreeClient(first)
        #expect(!String(decoding: try client.read("subtitled.mkv/info.json"), as: UTF8.self).contains("text_read_from_pictures"))
        let summary = String(decoding: try client.extendedAttribute(MediaTree.analysisAttribute, of: "subtitled.mkv"), as: UTF8.self)
        #expect(summary.contains("\"text_read\":2"))
        #expect(library.media.readPasses == 1)
        #expect(first.statistics.counters(of: .readTextSets)?.made.load(ordering: .relaxed) == 1)
        #expect(try client.list(Self.folder).contains { $0.name == Self.read && $0.size == Int64(StandInReading.text.utf8.count) })

        // info.json: the file read, its stream, forced or not.
        let info = try client.read("subtitled.mkv/info.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
        let read = try #require(document["text_read_from_pictures"] as? [[String: Any]])
        #expect(read.count == 2)
        #expect(read.first?["path"] as? String == "tracks/legible/" + Self.read)
        #expect(read.first?["stream"] as? Int == 8 && read.first?["forced_only"] as? Bool == false)
        #expect(read.first?["language"] as? String == "spa")
        #expect(try client.list("subtitled.mkv").first { $0.name == "info.json" }?.size == Int64(info.count))
        first.flushCaches()
        first.close()

        // A remount: listed with its size from the listing facts, the analysis done, nothing read.
        let again = library.tree()
        let second = DirectTreeClient(again)
        #expect(try second.list(Self.folder).contains { $0.name == Self.read && $0.size == Int64(StandInReading.text.utf8.count) })
        _ = try second.extendedAttribute(MediaTree.analysisAttribute, of: "subtitled.mkv")
        #expect(try second.read(Self.folder + Self.read) == Array(StandInReading.text.utf8))
        #expect(library.media.readPasses == 1, "the remount read the pictures again")
        #expect(again.statistics.counters(of: .readTextSets)?.made.load(ordering: .relaxed) == 0)
        #expect(again.statistics.counters(of: .readTextSets)?.fromDisk.load(ordering: .relaxed) == 1)
    }

    /// The server layout: `subtitled.spa.srt` (the film's only Spanish track is pictures) once
    /// read, made by the same pass as `tracks/legible/`'s; no forced file.
    @Test func theServerLayoutListsTheReadSidecarOnceRead() throws {
        let library = try ReadingLibrary()
        let tree = library.tree(layout: .server)
        let client = DirectTreeClient(tree)
        let before = try client.list("").map(\.name)
        #expect(before.contains("subtitled.spa.sup") && !before.contains("subtitled.spa.srt"))
        _ = try client.extendedAttribute(MediaTree.analysisAttribute, of: "subtitled.mkv")
        let after = try client.list("")
        #expect(after.first { $0.name == "subtitled.spa.srt" }?.size == Int64(StandInReading.text.utf8.count))
        #expect(!after.map(\.name).contains("subtitled.spa.forced.srt"))
        #expect(try client.read("subtitled.spa.srt") == Array(StandInReading.text.utf8))
        #expect(library.media.readPasses == 1)
        #expect(throws: CallError.self) { try client.stat("subtitled.spa.forced.srt") }
    }
}

/// The server test film in a source folder of its own, a cache folder, and the stand-in service.
private final class ReadingLibrary: Sendable {
    let root: URL
    let media = StandInReading()

    init() throws {
        guard TextLanguages.dataName(forStored: "spa") != nil else { throw HarnessError("no Spanish Tesseract data installed") }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("source"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try ServerMedia.film(), to: root.appendingPathComponent("source/subtitled.mkv"))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func tree(layout: TreeLayout = .folders) -> MediaTree {
        var settings = TreeSettings()
        settings.cacheDirectory = root.appendingPathComponent("cache").path
        settings.layout = layout
        settings.analysis = .onDemand
        return MediaTree(sourceRoot: root.appendingPathComponent("source").path, media: media, logger: Logger(label: "test"),
                         settings: settings)
    }
}

/// The real service, but the reading of pictures: every event reads as one known cue; no event is
/// forced. Counts the passes that read.
private final class StandInReading: ForwardingMediaService {
    let base: any MediaService = LocalMediaService(probeTimeout: 20)
    private let passes = Atomic<Int>(0)
    static let text = "1\n00:00:01,000 --> 00:00:03,000\nHola.\n\n"

    var readPasses: Int { passes.load(ordering: .relaxed) }

    func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double, reading: AnalysisRequest) throws -> [TrackResult] {
        guard jobs.contains(where: { $0.output.isReadFromPictures }) else {
            return try base.extractTracks(path: path, size: size, jobs: jobs, timeout: timeout, reading: reading)
        }
        let alone = jobs.allSatisfy { $0.output.isReadFromPictures }
        #expect(alone, "the reading shares its pass with other tracks")
        passes.add(1, ordering: .relaxed)
        return jobs.map { job in
            guard job.output == .subtitleSRTReadFromPictures else {
                return TrackResult(job: job, outcome: .failure(.trackUnavailable(stream: job.streamIndex, reason: "no forced events")))
            }
            _ = FileManager.default.createFile(atPath: job.path.string, contents: Data(Self.text.utf8))
            return TrackResult(job: job, outcome: .success(ExtractedTrack(path: job.path, size: Int64(Self.text.utf8.count), units: 1,
                                                                          skippedPackets: 0, cutShort: nil)))
        }
    }
}
