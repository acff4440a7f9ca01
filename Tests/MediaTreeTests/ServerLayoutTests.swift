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
        #expect(throws: (any Error).self) { try fixture.lookup("movie-1080p.eng.srt") }
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
}
