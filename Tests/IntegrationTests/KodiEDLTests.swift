import Foundation
import Testing
import TestSupport

/// Kodi (20, Debian's, headless under Xvfb: `KodiPlayer`) skips a commercial break (action 3) of
/// the edit decision list beside an episode, on a plain folder: the Kodi side of the server
/// layout's `.edl` files, so that the mount's test is `assertKodiSkips` on the mounted episode.
/// The control plays the same episode without the list through the same seconds.
///
/// Each test starts its own Kodi (a few seconds) and plays in real time: the skip about 15 s,
/// the control about 45 s. Serialized: two Kodis rendering with llvmpipe at once on a small
/// machine would slow each other's playback.
@Suite(.serialized, .enabled(if: KodiPlayer.missing == nil, Comment(rawValue: KodiPlayer.missing ?? "")))
struct KodiEDLTests {
    /// `Show S01E01.mkv` (60 s) in a new folder, with `Show S01E01.edl` holding `edl` if given.
    static func withEpisode(_ name: String, edl: String?, _ body: (String) throws -> Void) throws {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let episode = folder.path("Show S01E01.mkv")
        try KodiSkips.makeEpisode(episode)
        if let edl {
            try edl.write(toFile: folder.path("Show S01E01.edl"), atomically: true, encoding: .utf8)
        }
        try body(episode)
    }

    /// With `10.0 40.0 3` beside it, Kodi plays the first 10 s, then goes on at 40 s.
    @Test func kodiSkipsTheCommercialBreakOfTheEditDecisionList() throws {
        try Self.withEpisode("kodi-edl", edl: "10.0 40.0 3\n") { episode in
            try assertKodiSkips(file: episode, from: 10, to: 40)
        }
    }

    /// Without the list, Kodi plays the same seconds through.
    @Test func withoutTheListKodiPlaysThrough() throws {
        try Self.withEpisode("kodi-no-edl", edl: nil) { episode in
            try assertKodiPlaysThrough(file: episode, from: 10, to: 40)
        }
    }
}
