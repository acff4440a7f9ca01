import Foundation
@testable import MediaTree
import Testing
import TestSupport

/// Listings made from a version alone are kept and given again while the source stays the same
/// (a library's `ls -lR` relists every folder each time); anything that could make them wrong
/// makes them anew: a changed file, a changed mode, a dropped inode number, a track size not yet known.
@Suite struct KeptListingsTests {
    @Test func aMediaFolderListedOnceIsListedAgainAtOnceWithNoMediaWork() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let folder = try fixture.lookup("feature-1080p.mp4")
        // Never listed: its listing may read the file (chapters, pictures), so it is a worker's.
        #expect(fixture.tree.listAtOnce(folder.inode) == nil)
        let listed = try fixture.tree.list(folder.inode)
        let work = fixture.media.total
        let again = try #require(fixture.tree.listAtOnce(folder.inode)).get()
        #expect(again == listed && again.names == listed.names)
        #expect(fixture.media.total == work)
        // A folder listed from memory keeps its listing from the first one.
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        let first = try #require(fixture.tree.listAtOnce(thumbs.inode)).get()
        #expect(fixture.tree.listings.listing(of: thumbs.inode, stat: try stat(fixture, "feature-1080p.mp4"),
                                              removals: fixture.tree.inodes.removals) == first)
    }

    @Test func aChangedFileIsListedAnew() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let folder = try fixture.lookup("feature-1080p.mp4")
        let before = try fixture.tree.list(folder.inode)
        try fixture.touch("feature-1080p.mp4", seconds: -30)
        // The source changed: not given from memory, made again for the new version.
        #expect(fixture.tree.listAtOnce(folder.inode) == nil)
        let after = try fixture.tree.list(folder.inode)
        let original = { (listing: [DirectoryEntry]) in listing.first { $0.name == "feature-1080p.mp4" }!.attributes }
        #expect(original(after).modificationTime.tv_sec != original(before).modificationTime.tv_sec)
        #expect(after.names == before.names)
    }

    @Test func aChangedModeShowsInTheNextListing() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let folder = try fixture.lookup("feature-1080p.mp4")
        let before = try fixture.tree.list(folder.inode)
        #expect(before.first { $0.name == "feature-1080p.mp4" }?.attributes.permissions == 0o444)
        // A chmod keeps the file's identity (same bytes); the folder seen again carries the new
        // stat, and its kept listing, made from the old one, is not given.
        #expect(chmod(fixture.path("feature-1080p.mp4"), 0o600) == 0)
        _ = try fixture.lookup("feature-1080p.mp4")
        #expect(fixture.tree.listAtOnce(folder.inode) == nil)
        let after = try fixture.tree.list(folder.inode)
        #expect(after.first { $0.name == "feature-1080p.mp4" }?.attributes.permissions == 0o400)
    }

    @Test func aDroppedNumberIsNumberedAgainByTheNextListing() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        let listed = try #require(fixture.tree.listAtOnce(thumbs.inode)).get()
        let dropped = listed[3].inode
        fixture.tree.drop(dropped)
        #expect(!fixture.tree.isNumbered(dropped))
        // The kept listing names a number the table no longer holds: made again, which numbers
        // every entry again (with the same numbers).
        let again = try #require(fixture.tree.listAtOnce(thumbs.inode)).get()
        #expect(again.map(\.inode) == listed.map(\.inode))
        #expect(again.allSatisfy { fixture.tree.isNumbered($0.inode) })
    }

    @Test func aTrackGroupIsKeptOnlyOnceEverySizeIsKnown() throws {
        let cache = try TempFolder("kept-tracks")
        defer { cache.remove() }
        let fixture = try TreeFixture(files: ["movie-1080p.mkv"], settings: TracksFolderTests.settings(cache: cache))
        let audible = try fixture.lookup("movie-1080p.mkv/tracks/audible")
        let stat = try stat(fixture, "movie-1080p.mkv")
        let names = try #require(fixture.tree.listAtOnce(audible.inode)).get()
        #expect(names.allSatisfy { $0.nameAndTypeOnly })
        #expect(fixture.tree.listings.listing(of: audible.inode, stat: stat, removals: fixture.tree.inodes.removals) == nil)
        _ = try fixture.lookup("movie-1080p.mkv/tracks/audible/" + names[0].name.escaped)  // the pass
        let sized = try #require(fixture.tree.listAtOnce(audible.inode)).get()
        #expect(sized.allSatisfy { !$0.nameAndTypeOnly && $0.attributes.size > 0 })
        #expect(fixture.tree.listings.listing(of: audible.inode, stat: stat, removals: fixture.tree.inodes.removals) == sized)
    }

    private func stat(_ fixture: TreeFixture, _ relative: String) throws -> SourceStat {
        try #require(fixture.tree.sourceStat(SourcePath(relative)))
    }
}
