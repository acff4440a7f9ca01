import FuseBridge
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
        _ = try fixture.numbered.attributes(of: attributes.inode)
        _ = try fixture.open(attributes.inode)
        #expect(count(statistics.thumbnailNameParses) == 1)
        #expect(count(statistics.probeFetches) == 1)
        #expect(fixture.media.probes(of: fixture.path("feature-1080p.mp4")) == 1)
    }

    @Test func aProbeThatTimedOutIsTriedAgainAtTheNextLookup() throws {
        let source = try TreeFixture(files: ["clips/clip-vp9.webm"])
        let media = TimingOutOnceService()
        let mediaTree = MediaTree(sourceRoot: source.source.path, media: media, logger: Logger(label: "test"))
        defer { mediaTree.close() }
        let tree = NumberedTree(tree: mediaTree)
        let clips = try tree.lookup(parent: NodeKey.rootNumber, name: "clips")
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
private final class TimingOutOnceService: ForwardingMediaService {
    let base: any MediaService = LocalMediaService(probeTimeout: 20)
    private let calls = Mutex(0)
    var probeCalls: Int { calls.withLock { $0 } }

    func probe(path: FilePath, size: Int64) throws -> MediaInfo {
        let call = calls.withLock { count -> Int in
            count += 1
            return count
        }
        if call == 1 { throw MediaError.timedOut(seconds: 20) }
        return try base.probe(path: path, size: size)
    }
}
