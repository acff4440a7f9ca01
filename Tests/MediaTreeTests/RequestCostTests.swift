import Foundation
import Logging
import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing

/// What one request costs the tree: a node carries what its lookup resolved, so no step works it
/// out again (issue 15); and a probe that failed for the moment is tried again.
@Suite struct RequestCostTests {
    private func count(_ counter: borrowing Atomic<Int>) -> Int { counter.load(ordering: .relaxed) }

    @Test func aThumbnailLookupParsesItsNameOnceAndFetchesTheProbeOnce() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let statistics = fixture.tree.statistics
        // The whole walk from the root: the media folder's lookup fetches the probe (the file is
        // probed then), `thumbs` and the image's name reuse it.
        let attributes = try fixture.lookup("feature-1080p.mp4/thumbs/at-12.5s.png")
        #expect(count(statistics.thumbnailNameParses) == 1)
        #expect(count(statistics.probeFetches) == 1)
        #expect(attributes.size == Int64(PNGEncoder.encodedSize(width: 320, height: 180)))
        // Its attributes and its read: no name parsed again, no probe fetched again.
        _ = try fixture.tree.attributes(of: attributes.inode)
        _ = try fixture.open(attributes.inode)
        #expect(count(statistics.thumbnailNameParses) == 1)
        #expect(count(statistics.probeFetches) == 1)
        #expect(fixture.media.probes(of: fixture.path("feature-1080p.mp4")) == 1)
    }

    @Test func aProbeThatTimedOutIsTriedAgainAtTheNextLookup() throws {
        let source = try TreeFixture(files: ["clips/clip-vp9.webm"])
        let media = TimingOutOnceService()
        let tree = MediaTree(sourceRoot: source.source.path, media: media, logger: Logger(label: "test"))
        defer { tree.close() }
        let clips = try tree.lookup(parent: InodeTable.rootNumber, name: "clips")
        // The first probe times out (a busy disk): shown as a plain file for now.
        let first = try tree.lookup(parent: clips.inode, name: "clip-vp9.webm")
        #expect(first.type == .regular)
        // The next lookup probes again, and the file is a media folder.
        let second = try tree.lookup(parent: clips.inode, name: "clip-vp9.webm")
        #expect(second.type == .directory)
        #expect(media.probeCalls == 2)
    }
}

/// A media service whose first probe times out.
private final class TimingOutOnceService: MediaService {
    private let inner = LocalMediaService(probeTimeout: 20)
    private let calls = Mutex(0)
    var probeCalls: Int { calls.withLock { $0 } }

    func probe(path: FilePath, size: Int64) throws -> MediaInfo {
        let call = calls.withLock { count -> Int in
            count += 1
            return count
        }
        if call == 1 { throw MediaError.timedOut(seconds: 20) }
        return try inner.probe(path: path, size: size)
    }

    func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
        try inner.thumbnail(of: file, request: request)
    }

    func chapters(path: FilePath, size: Int64) throws -> ChapterList { try inner.chapters(path: path, size: size) }

    func chapterImage(path: FilePath, size: Int64, index: Int) throws -> ChapterImage? {
        try inner.chapterImage(path: path, size: size, index: index)
    }

    func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double) throws -> [TrackResult] {
        try inner.extractTracks(path: path, size: size, jobs: jobs, timeout: timeout)
    }

    func coverArt(path: FilePath, size: Int64) throws -> CoverArt? { try inner.coverArt(path: path, size: size) }

    func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        try inner.stillImage(bytes: bytes, codec: codec, width: width, height: height, format: format)
    }

    func storyboardSheet(of file: MediaFile, request: StoryboardRequest, sheet: Int) throws -> [UInt8] {
        try inner.storyboardSheet(of: file, request: request, sheet: sheet)
    }

    func contactSheet(of file: MediaFile, request: ContactSheetRequest, format: ImageFormat) throws -> [UInt8] {
        try inner.contactSheet(of: file, request: request, format: format)
    }
}
