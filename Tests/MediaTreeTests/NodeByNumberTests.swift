@testable import FuseBridge
import Foundation
import Glibc
@testable import MediaTree
import Testing

/// A node found by number (`NumberedTree.node`): made from the name its entry was given under, in
/// its folder's node, where a folder of the source is made from its path alone, not from the
/// folders above it.
@Suite struct NodeByNumberTests {
    /// The film in `clips/` and a thumbnail of it, listed by one tree (`ls -lR`) and numbered in
    /// another from those listings (the listings and numbers are the same in every tree): the
    /// second holds no entry for `clips/` or the root's listing, and no node, yet makes both. Its
    /// media folder's levels are made on the way down from the film.
    @Test func aNodeIsMadeWithoutTheFoldersAboveItsMediaFolder() throws {
        let first = try TreeFixture(files: ["clips/clip-vp9.webm"])
        defer { withExtendedLifetime(first) {} }  // it owns the source
        let clips = try first.numbered.keptListing(try first.lookup("clips").inode)
        let filmIndex = try #require(clips.entries.firstIndex { $0.name == "clip-vp9.webm" })
        let inFilm = try first.numbered.keptListing(first.numbered.enter(clips, index: filmIndex))
        let thumbsIndex = try #require(inFilm.entries.firstIndex { $0.name == "thumbs" })
        let pictures = try first.numbered.keptListing(first.numbered.enter(inFilm, index: thumbsIndex))

        let second = TreeFixture(source: first.source, settings: TreeSettings())
        let film = second.numbered.enter(clips, index: filmIndex)
        #expect(!second.numbered.holds(clips.folder), "no entry for clips/")
        #expect(try second.numbered.attributes(of: film) == clips.entries[filmIndex].attributes)
        _ = second.numbered.enter(inFilm, index: thumbsIndex)
        let picture = second.numbered.enter(pictures, index: 0)
        #expect(try second.numbered.attributes(of: picture) == pictures.entries[0].attributes)

        // Its folder gone, the film is stale, as when its folder's node was made from its name.
        #expect(rename(first.path("clips"), first.path("clips-moved")) == 0)
        let third = TreeFixture(source: first.source, settings: TreeSettings())
        #expect(throws: TreeError.stale) { try third.numbered.attributes(of: third.numbered.enter(clips, index: filmIndex)) }
        #expect(throws: TreeError.notFound) { try third.numbered.attributes(of: 12_345) }
    }
}
