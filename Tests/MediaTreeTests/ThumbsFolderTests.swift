import FuseBridge
import MediaKit
import MediaTree
import Testing
import TestSupport

/// thumbs/ in the tree: listed and stat'ed from the probe alone. That any valid name resolves and
/// others do not, with sizes following the box, is a thumbs scenario (TestSupport/Scenarios, run
/// here by ScenarioTests and through a mount by MountedScenarioTests).
@Suite struct ThumbsFolderTests {
    @Test func listingAndStatMakeNoImage() throws {
        let fixture = try TreeFixture()
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        #expect(thumbs.type == .directory && thumbs.permissions == 0o555)
        let all = try fixture.numbered.list(thumbs.inode)
        #expect(all.prefix(3).map(\.name.escaped) == MadeFolderNames.markers)
        let listing = all.dropFirst(3)
        // A 30 s clip: one name a second, then the quarters.
        #expect(listing.count == 33)
        #expect(listing.first?.name == "at-00m00s.png" && listing.last?.name == "at-75%.png")
        for entry in listing {
            let attributes = try fixture.numbered.lookup(parent: thumbs.inode, name: entry.name.escaped)
            #expect(attributes.type == .regular && attributes.size > 0 && attributes == entry.attributes)
            #expect(attributes.permissions == 0o444)
        }
        #expect(fixture.media.thumbnails(of: fixture.path("feature-1080p.mp4")) == 0)
    }

    @Test func filesWithoutVideoHaveNoThumbs() throws {
        let fixture = try TreeFixture(files: ["audio/audiobook.m4a"])
        let folder = try fixture.lookup("audio/audiobook.m4a")
        #expect(!(try fixture.numbered.list(folder.inode).map(\.name)).contains("thumbs"))
        #expect(throws: TreeError.notFound) { try fixture.numbered.lookup(parent: folder.inode, name: "thumbs") }
    }
}
