@testable import FuseBridge
import Foundation
@testable import MediaTree
import Testing
import TestSupport

/// Listings made from a version alone are kept by their folder's entry in the node table and given
/// again while the source stays the same (a library's `ls -lR` relists every folder each time);
/// anything that could make them wrong makes them anew: a changed file, a changed mode, a track
/// size not yet known. Entries numbered from a listing hold no node until asked for.
@Suite struct KeptListingTests {
    @Test func aMediaFolderListedOnceIsListedAgainAtOnceWithNoMediaWork() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let folder = try fixture.lookup("feature-1080p.mp4")
        // Never listed: its listing may read the file (chapters, pictures), so it is a worker's.
        #expect(fixture.numbered.listingAtOnce(folder.inode) == nil)
        let listed = try fixture.numbered.list(folder.inode)
        let work = fixture.media.total
        let again = try #require(fixture.numbered.listingAtOnce(folder.inode)).get()
        #expect(again.entries == listed && again === fixture.numbered.table.entry(folder.inode)?.listing)
        #expect(fixture.media.total == work)
        // A folder listed from memory keeps its listing from the first one.
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        let first = try #require(fixture.numbered.listingAtOnce(thumbs.inode)).get()
        #expect(try #require(fixture.numbered.listingAtOnce(thumbs.inode)).get() === first)
    }

    @Test func aChangedFileIsListedAnew() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let folder = try fixture.lookup("feature-1080p.mp4")
        let before = try fixture.numbered.list(folder.inode)
        try fixture.touch("feature-1080p.mp4", seconds: -30)
        // The source changed: not given from memory, made again for the new version.
        #expect(fixture.numbered.listingAtOnce(folder.inode) == nil)
        let after = try fixture.numbered.list(folder.inode)
        let original = { (listing: [DirectoryEntry]) in listing.first { $0.name == "feature-1080p.mp4" }!.attributes }
        #expect(original(after).modificationTime.tv_sec != original(before).modificationTime.tv_sec)
        #expect(after.names == before.names)
    }

    @Test func aChangedModeShowsInTheNextListing() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let folder = try fixture.lookup("feature-1080p.mp4")
        let before = try fixture.numbered.list(folder.inode)
        #expect(before.first { $0.name == "feature-1080p.mp4" }?.attributes.permissions == 0o444)
        // A chmod keeps the file's identity (same bytes); the kept listing, made from the old stat,
        // is not given.
        #expect(chmod(fixture.path("feature-1080p.mp4"), 0o600) == 0)
        #expect(fixture.numbered.listingAtOnce(folder.inode) == nil)
        let after = try fixture.numbered.list(folder.inode)
        #expect(after.first { $0.name == "feature-1080p.mp4" }?.attributes.permissions == 0o400)
    }

    /// What readdirplus does: each entry numbered and counted, with no node made; the kernel asks
    /// for one by number, which makes its node from the listed name, and forgets them all.
    @Test func listedEntriesAreNumberedWithoutNodesAndMadeWhenAskedFor() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"])
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        let listing = try #require(fixture.numbered.listingAtOnce(thumbs.inode)).get()
        let numbers = listing.entries.indices.map { fixture.numbered.enter(listing, index: $0) }
        #expect(numbers == listing.entries.map(\.inode), "the numbers the keys ask for")
        #expect(numbers.allSatisfy { fixture.numbered.table.entry($0)?.node == nil })
        let parses = fixture.tree.statistics.thumbnailNameParses.load(ordering: .relaxed)
        // The third thumbnail, after the three markers.
        let third = try fixture.numbered.attributes(of: numbers[5])
        #expect(third == listing.entries[5].attributes)
        #expect(fixture.tree.statistics.thumbnailNameParses.load(ordering: .relaxed) == parses + 1, "made from its name")
        // The same key looked up by name: the same number, one more lookup.
        let byName = try fixture.lookup("feature-1080p.mp4/thumbs/" + listing.entries[5].name.escaped)
        #expect(byName.inode == numbers[5] && fixture.numbered.table.lookups(of: numbers[5]) == 2)
        for number in numbers { fixture.numbered.forget(number, count: 2) }
        #expect(numbers.allSatisfy { !fixture.numbered.holds($0) })
        // Listed again from the kept listing: numbered again, with the same numbers.
        let again = try #require(fixture.numbered.listingAtOnce(thumbs.inode)).get()
        #expect(again === listing)
        #expect(again.entries.indices.map { fixture.numbered.enter(again, index: $0) } == numbers)
    }

    /// A media folder is listed with its subfolders: opening one (as `ls -R` does next) gives the
    /// listing made then, kept by the folder's listing, not by the subfolder's entry.
    @Test func aMediaFoldersSubfoldersAreListedWithIt() throws {
        let fixture = try TreeFixture(files: ["movie-1080p.mkv"])
        let folder = try fixture.numbered.keptListing(try fixture.lookup("movie-1080p.mkv").inode)
        let subfolders = folder.entries.indices.filter { folder.entries[$0].type == .directory }
        #expect(subfolders.count >= 3, "chapters/, storyboard/, thumbs/, tracks/")
        for index in subfolders {
            let number = fixture.numbered.enter(folder, index: index)  // readdirplus
            let made = try #require(folder.sublisting(at: index, number: number), "\(folder.entries[index].name)")
            #expect(try #require(fixture.numbered.listingAtOnce(number)).get() === made)
            #expect(fixture.numbered.table.entry(number)?.listing == nil && fixture.numbered.table.entry(number)?.node == nil)
        }
    }

    /// A remount's first listing of a source folder lists the media folders in it ahead, from the
    /// chapters and listing facts read with their probes, with their subfolders: each opens at once
    /// with the listing made then. A later listing of the folder lists none ahead again.
    @Test func aRemountListsMediaFoldersAheadWithTheirFolder() throws {
        let cache = try TempFolder("listed-ahead")
        defer { cache.remove() }
        let settings = TracksFolderTests.settings(cache: cache)
        let first = try TreeFixture(files: ["movie-1080p.mkv", "feature-1080p.mp4"], settings: settings)
        defer { withExtendedLifetime(first) {} }  // it owns the source
        // Listed whole once, as `ls -lR` does, so the listing facts are learnt; then unmounted.
        var folders = [NodeKey.rootNumber]
        while let folder = folders.popLast() {
            let listing = try first.numbered.keptListing(folder)
            for index in listing.entries.indices where listing.entries[index].type == .directory {
                folders.append(first.numbered.enter(listing, index: index))
            }
        }
        first.tree.flushCaches()

        let remount = TreeFixture(source: first.source, settings: settings)
        let root = try remount.numbered.keptListing(NodeKey.rootNumber)
        #expect(root.entries.count == 2)
        for index in root.entries.indices {
            let number = remount.numbered.enter(root, index: index)
            let ahead = try #require(root.sublisting(at: index, number: number), "\(root.entries[index].name) listed ahead")
            #expect(try #require(remount.numbered.listingAtOnce(number)).get() === ahead)
            let thumbs = try #require(ahead.entries.firstIndex { $0.name == "thumbs" })
            let thumbsNumber = remount.numbered.enter(ahead, index: thumbs)
            #expect(try #require(remount.numbered.listingAtOnce(thumbsNumber)).get() === ahead.sublisting(at: thumbs, number: thumbsNumber))
        }
        #expect(remount.media.total == 0, "nothing read from a media file")
        let again = try remount.numbered.keptListing(NodeKey.rootNumber)
        #expect(again !== root && again.entries.indices.allSatisfy { again.sublisting(at: $0, number: root.entries[$0].inode) == nil })
    }

    /// A tree over `movie-1080p.mkv` with a cache folder, its `tracks/audible` looked up, and that
    /// group's first listing (its pass not run; at once, the version's listing facts came with its
    /// record).
    private func audibleGroup(cache: TempFolder) throws -> (fixture: TreeFixture, audible: Attributes, names: KeptListing) {
        let fixture = try TreeFixture(files: ["movie-1080p.mkv"], settings: TracksFolderTests.settings(cache: cache))
        let audible = try fixture.lookup("movie-1080p.mkv/tracks/audible")
        #expect(fixture.numbered.listingAtOnce(audible.inode) != nil, "the listing facts came with the record")
        return (fixture, audible, try fixture.numbered.keptListing(audible.inode))
    }

    @Test func aTrackGroupIsKeptOnlyOnceEverySizeIsKnown() throws {
        let cache = try TempFolder("kept-tracks")
        defer { cache.remove() }
        let (fixture, audible, names) = try audibleGroup(cache: cache)
        #expect(names.entries.allSatisfy { $0.nameAndTypeOnly })
        #expect(fixture.numbered.table.entry(audible.inode)?.listing == nil)
        _ = try fixture.lookup("movie-1080p.mkv/tracks/audible/" + names.entries[0].name.escaped)  // the pass
        let sized = try #require(fixture.numbered.listingAtOnce(audible.inode)).get()
        #expect(sized.entries.allSatisfy { !$0.nameAndTypeOnly && $0.attributes.size > 0 })
        #expect(fixture.numbered.table.entry(audible.inode)?.listing === sized)
    }

    /// Once a group's sizes are learnt and written, listing it again (the pass remembered) queues
    /// nothing more to write.
    @Test func aTrackGroupListedAgainLearnsNothingNew() throws {
        let cache = try TempFolder("learnt-tracks")
        defer { cache.remove() }
        let (fixture, audible, names) = try audibleGroup(cache: cache)
        _ = try fixture.lookup("movie-1080p.mkv/tracks/audible/" + names.entries[0].name.escaped)  // the pass
        let folder = try #require(try fixture.numbered.node(audible.inode) as? any MediaSubfolder)
        #expect(fixture.tree.rememberedTrackSizes(.main, of: folder.version)?.isEmpty == false)
        fixture.tree.flushCaches()
        #expect(fixture.tree.rememberedTrackSizes(.main, of: folder.version)?.isEmpty == false)
        _ = try fixture.numbered.list(audible.inode)
        #expect(fixture.tree.probeDatabase?.waitingVersions == 0, "the sizes were known: nothing new to write")
    }
}
