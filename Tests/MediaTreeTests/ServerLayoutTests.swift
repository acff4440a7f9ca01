import Foundation
import MediaTree
import Testing
import TestSupport

/// What only the tree shows of the server layout: which files a request probes. (What holds
/// through a mount too is in the server scenarios, TestSupport/Scenarios/Scenarios+Server.swift.)
@Suite struct ServerLayoutTests {
    static var settings: TreeSettings {
        var settings = TreeSettings()
        settings.layout = .server
        return settings
    }

    /// A name beside a film is mapped to its film by the film's base name: only that film is probed,
    /// not every file of the folder; the folder's names are read once and kept.
    @Test func aNameBesideAFilmProbesThatFilmAlone() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4", "movie-1080p.mkv", "notes.txt"], settings: Self.settings)
        #expect(throws: (any Error).self) { try fixture.lookup("movie-1080p.nothing") }
        #expect(fixture.media.probes(of: fixture.path("movie-1080p.mkv")) == 1)
        #expect(fixture.media.probes(of: fixture.path("feature-1080p.mp4")) == 0)
        // No film's base name: nothing probed.
        #expect(throws: (any Error).self) { try fixture.lookup("notes-poster.jpg") }
        #expect(throws: (any Error).self) { try fixture.lookup("other.eng.srt") }
        #expect(fixture.media.total == 1)
        // The film itself is a plain file: looking it up probes nothing.
        #expect(try fixture.lookup("feature-1080p.mp4").type == .regular)
        #expect(fixture.media.probes(of: fixture.path("feature-1080p.mp4")) == 0)
    }

    /// A BIF is served by offset: the header and index need no frame; a read in the last run of
    /// frames makes that run alone; every read gives the bytes of the whole file at its offsets.
    @Test func aBIFMakesTheFramesAReadReaches() throws {
        var settings = Self.settings
        settings.storyboard.interval = 2
        settings.storyboard.grid = Grid(columns: 2, rows: 2)
        let fixture = try TreeFixture(files: ["feature-1080p.mp4"], settings: settings)
        let name = "feature-1080p-320-2.bif"
        let size = Int(try fixture.lookup(name).size)
        // 30 s every 2 s: 15 frames, in runs of 4 (the last of 3).
        let content = try fixture.open(try fixture.lookup(name).inode)
        func made() -> Int { Self.counter("bif_frames_made", fixture.tree) }
        let head = try content.read(offset: 0, count: 100)
        let read = try BIFReader(try fixture.read(name))
        #expect(head.count == 100 && read.imageCount == 15 && read.multiplier == 2000)
        #expect(made() == 4)
        let fresh = try TreeFixture(files: ["feature-1080p.mp4"], settings: settings)
        let freshContent = try fresh.open(try fresh.lookup(name).inode)
        #expect(try freshContent.read(offset: 0, count: 64 + 8 * 16) == Array(try fixture.read(name).prefix(64 + 8 * 16)))
        #expect(Self.counter("bif_frames_made", fresh.tree) == 0)
        let whole = try fixture.read(name)
        let lastFrame = read.frames.last!.jpeg.count
        let tail = try freshContent.read(offset: Int64(size - lastFrame - 10), count: 1 << 20)
        #expect(tail == Array(whole.suffix(lastFrame + 10)))
        #expect(Self.counter("bif_frames_made", fresh.tree) == 1)
        // Reads across runs, of any length.
        for (offset, count) in [(0, size), (100, 5000), (size / 3, size / 3), (size - 1, 10), (size, 10)] {
            #expect(try freshContent.read(offset: Int64(offset), count: count) == Array(whole[min(offset, size)..<min(size, offset + count)]))
        }
    }

    /// A counter of `user.mediafs.stats`.
    static func counter(_ name: String, _ tree: MediaTree) -> Int {
        let document = tree.statisticsDocument()
        guard let range = document.range(of: "\"\(name)\":") else { return -1 }
        return Int(document[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }

    /// A sidecar's size needs its track pass: a listing gives its name and type only until the pass
    /// has run (no pass for a listing), then its size; a pass makes every sidecar of the film.
    @Test func sidecarsAreListedByNameAndTypeUntilTheirPass() throws {
        let fixture = try TreeFixture(files: ["movie-1080p.mkv"], settings: Self.settings)
        func sidecars() throws -> [DirectoryEntry] {
            try fixture.numbered.list(NodeKey.rootNumber).filter { $0.name.string!.hasSuffix(".srt") || $0.name.string!.hasSuffix(".ass") }
        }
        #expect(try sidecars().count == 3 && sidecars().allSatisfy(\.nameAndTypeOnly))
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 0)
        let size = try fixture.lookup("movie-1080p.eng.srt").size
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 1)
        let listed = try sidecars()
        #expect(listed.allSatisfy { !$0.nameAndTypeOnly } && listed.first { $0.name == "movie-1080p.eng.srt" }?.attributes.size == size)
        #expect(try fixture.read("movie-1080p.fre.forced.ass").starts(with: Array("[Script Info]".utf8)))
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 1)
    }
}
