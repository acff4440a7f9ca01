import FuseBridge
import MediaKit
import MediaTree
import Testing
import TestSupport

/// thumbs/ in the tree: listed and stat'ed from the probe alone. The listing, that any valid name
/// resolves and others do not, with sizes following the box, and that a file without video has
/// no thumbs/ are thumbs and browsing scenarios (TestSupport/Scenarios, run here by ScenarioTests
/// and through a mount by MountedScenarioTests).
@Suite struct ThumbsFolderTests {
    /// Listing thumbs/ and stat'ing every name makes no image, and a lookup gives the attributes
    /// the listing carried, every field (the listing's names, types and sizes are the thumbs
    /// scenarios').
    @Test func listingAndStatMakeNoImage() throws {
        let fixture = try TreeFixture()
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        for entry in try fixture.numbered.list(thumbs.inode) {
            #expect(try fixture.numbered.lookup(parent: thumbs.inode, name: entry.name.escaped) == entry.attributes, "\(entry.name)")
        }
        #expect(fixture.media.thumbnails(of: fixture.path("feature-1080p.mp4")) == 0)
    }
}
