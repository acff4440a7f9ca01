import MediaKit
import MediaTree
import Testing

/// thumbs/ in the tree: listed and stat'ed from the probe alone; any valid name resolves.
@Suite struct ThumbsFolderTests {
    @Test func listingAndStatMakeNoImage() throws {
        let fixture = try TreeFixture()
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        #expect(thumbs.type == .directory && thumbs.permissions == 0o555)
        let listing = try fixture.tree.list(thumbs.inode)
        // A 30 s clip: one name a second, then the quarters.
        #expect(listing.count == 33)
        #expect(listing.first?.name == "at-00m00s.png" && listing.last?.name == "at-75%.png")
        for entry in listing {
            let attributes = try fixture.tree.lookup(parent: thumbs.inode, name: entry.name.escaped)
            #expect(attributes.type == .regular && attributes.size > 0 && attributes == entry.attributes)
            #expect(attributes.permissions == 0o444)
        }
        #expect(fixture.media.thumbnails(of: fixture.path("feature-1080p.mp4")) == 0)
    }

    @Test func anyValidNameResolvesAndOthersDoNot() throws {
        let fixture = try TreeFixture()
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs").inode
        for name in ["at-12.5s.png", "near-0:07.png", "at-00:00:29.9@180h.png", "at-30s.png", "at-100%@full.png",
                     "at-1s@640x100.png"] {
            #expect(throws: Never.self, "\(name)") { try fixture.tree.lookup(parent: thumbs, name: name) }
        }
        for name in ["at-30.1s.png", "at-1h.png", "at-12.5s", "cover.png", "at-x.png"] {
            #expect(throws: TreeError.notFound, "\(name)") { try fixture.tree.lookup(parent: thumbs, name: name) }
        }
        // Sizes follow the box: the default 320 wide, a height box, the full display size.
        let small = try fixture.tree.lookup(parent: thumbs, name: "at-1s.png")
        let full = try fixture.tree.lookup(parent: thumbs, name: "at-1s@full.png")
        #expect(small.size < full.size)
        #expect(try fixture.tree.lookup(parent: thumbs, name: "at-1s@320w.png").size == small.size)
        #expect(try fixture.tree.lookup(parent: thumbs, name: "at-1s@180h.png").size == small.size, "640x360 in a 180-high box is 320x180")
    }

    @Test func filesWithoutVideoHaveNoThumbs() throws {
        let fixture = try TreeFixture(files: ["audio/audiobook.m4a"])
        let folder = try fixture.lookup("audio/audiobook.m4a")
        #expect(!(try fixture.tree.list(folder.inode).map(\.name)).contains("thumbs"))
        #expect(throws: TreeError.notFound) { try fixture.tree.lookup(parent: folder.inode, name: "thumbs") }
    }
}
