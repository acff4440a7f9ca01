import Foundation
import FuseBridge
import Logging
import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// What a remount's listing costs: a library listed once is listed again by a new tree over the
/// same cache folder (a remount, a reboot) without opening a single media file. Every request to
/// the media service opens one, so none may reach it.
@Suite struct RemountCostTests {
    @Test func aRemountListsALibraryListedBeforeWithoutOpeningAMediaFile() throws {
        let library = try TestMedia.library()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-remount-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var settings = TreeSettings()
        settings.cacheDirectory = cache.path

        let first = EveryRequestCountingService()
        let firstListed = try listEverything(MediaTree(sourceRoot: library.path, media: first, logger: Logger(label: "test"),
                                                       settings: settings))
        #expect(first.requests.keys.contains { $0.hasPrefix("probe ") }, "the first listing probes the library")

        let second = EveryRequestCountingService()
        let tree = MediaTree(sourceRoot: library.path, media: second, logger: Logger(label: "test"), settings: settings)
        let secondListed = try listEverything(tree)
        #expect(second.requests == [:], "the remount's listing opened media files: \(second.requests)")
        #expect(count(tree.statistics.probes) == 0)
        #expect(count(tree.statistics.chapterListsRead) == 0)
        #expect(count(tree.statistics.probesFromDatabase) > 0)
        for kind in tree.statistics.madeKinds {
            #expect(tree.statistics.counters(of: kind)?.made.load(ordering: .relaxed) == 0,
                    "the remount's listing made \(kind.name): it renders nothing")
        }
        #expect(secondListed == firstListed, "the remount lists the same entries with the same sizes")
    }

    @Test func aFileChangedSinceTheListingIsProbedAgainAndNoOther() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4", "clips/clip-vp9.webm", "movie-1080p.mkv"])
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-remount-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var settings = TreeSettings()
        settings.cacheDirectory = cache.path
        _ = try listEverything(MediaTree(sourceRoot: fixture.source.path, media: EveryRequestCountingService(),
                                         logger: Logger(label: "test"), settings: settings))
        try fixture.touch("movie-1080p.mkv")

        let second = EveryRequestCountingService()
        _ = try listEverything(MediaTree(sourceRoot: fixture.source.path, media: second, logger: Logger(label: "test"),
                                         settings: settings))
        let changed = fixture.path("movie-1080p.mkv")
        #expect(second.requests(of: changed)["probe"] == 1)
        #expect(second.requests.keys.allSatisfy { $0.hasSuffix(" " + changed) },
                "only the changed file is opened: \(second.requests)")
    }

    private func count(_ counter: borrowing Atomic<Int>) -> Int { counter.load(ordering: .relaxed) }

    /// Lists every folder under the root as `ls -lR` does (each folder listed, each entry looked
    /// up), then flushes and closes the tree as an unmount does; every entry's path, type and size, in listing order.
    private func listEverything(_ mediaTree: MediaTree) throws -> [String] {
        defer {
            // As the mount does at its end.
            mediaTree.flushCaches()
            mediaTree.close()
        }
        let tree = NumberedTree(tree: mediaTree)
        var listed: [String] = []
        var folders: [(path: String, inode: UInt64)] = [("", NodeKey.rootNumber)]
        while let folder = folders.popLast() {
            for entry in try tree.list(folder.inode) {
                let name = entry.name.escaped
                let attributes = try tree.lookup(parent: folder.inode, name: name)
                let path = folder.path + "/" + name
                listed.append("\(path) \(attributes.type) \(attributes.size)")
                if attributes.type == .directory { folders.append((path, attributes.inode)) }
            }
        }
        return listed
    }
}

/// A media service that counts every request it is given, by kind and path (each opens a media
/// file), and hands it on to a local service.
private final class EveryRequestCountingService: ForwardingMediaService {
    let base: any MediaService = LocalMediaService(probeTimeout: 20)
    private let counts = Mutex<[String: Int]>([:])

    /// Requests made so far: "KIND PATH" (or "KIND" for those without a path) → how many.
    var requests: [String: Int] { counts.withLock { $0 } }

    /// The requests made for the file at `path`, by kind.
    func requests(of path: String) -> [String: Int] {
        var byKind: [String: Int] = [:]
        for (key, n) in requests where key.hasSuffix(" " + path) {
            byKind[String(key.dropLast(path.count + 1)), default: 0] += n
        }
        return byKind
    }

    private func counted<T>(_ kind: String, _ path: FilePath?, _ work: () throws -> T) rethrows -> T {
        counts.withLock { $0[path.map { "\(kind) \($0.string)" } ?? kind, default: 0] += 1 }
        return try work()
    }

    func probe(path: FilePath, size: Int64) throws -> MediaInfo {
        try counted("probe", path) { try base.probe(path: path, size: size) }
    }

    func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
        try counted("thumbnail", file.path) { try base.thumbnail(of: file, request: request) }
    }

    func chapters(path: FilePath, size: Int64) throws -> ChapterList {
        try counted("chapters", path) { try base.chapters(path: path, size: size) }
    }

    func chapterImage(path: FilePath, size: Int64, index: Int) throws -> ChapterImage? {
        try counted("chapter image", path) { try base.chapterImage(path: path, size: size, index: index) }
    }

    func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double, reading: AnalysisRequest) throws -> [TrackResult] {
        try counted("tracks", path) { try base.extractTracks(path: path, size: size, jobs: jobs, timeout: timeout, reading: reading) }
    }

    func coverArt(path: FilePath, size: Int64) throws -> CoverArt? {
        try counted("cover art", path) { try base.coverArt(path: path, size: size) }
    }

    func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        try counted("still image", nil) { try base.stillImage(bytes: bytes, codec: codec, width: width, height: height, format: format) }
    }

    func storyboardSheet(of file: MediaFile, request: StoryboardRequest, sheet: Int) throws -> [UInt8] {
        try counted("storyboard sheet", file.path) { try base.storyboardSheet(of: file, request: request, sheet: sheet) }
    }

    func contactSheet(of file: MediaFile, request: ContactSheetRequest, format: ImageFormat) throws -> [UInt8] {
        try counted("contact sheet", file.path) { try base.contactSheet(of: file, request: request, format: format) }
    }

    func trickplaySheet(of file: MediaFile, layout: TrickplayLayout, sheet: Int) throws -> [UInt8] {
        try counted("trickplay sheet", file.path) { try base.trickplaySheet(of: file, layout: layout, sheet: sheet) }
    }

    func storyboardFrames(of file: MediaFile, storyboard: StoryboardLayout, frames: Range<Int>) throws -> [[UInt8]] {
        try counted("storyboard frames", file.path) { try base.storyboardFrames(of: file, storyboard: storyboard, frames: frames) }
    }
}
