import Foundation
import Testing
import TestSupport

/// Kodi (20, Debian's, headless under Xvfb: `KodiPlayer`) skips an episode's intro by the edit
/// decision list (action 3, a commercial break) a `--layout server` mount shows beside it, made from
/// what the analysis found. The control plays an episode without a list through the same seconds,
/// on a plain folder: what is skipped is skipped by the list.
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

    /// A season through a `--layout server` mount: the analysis finds the intro the episodes
    /// share, the mount shows `Show S01E04.edl` beside the episode, and Kodi, playing the episode
    /// from the mount, skips the intro by it. The season's episodes (`SeasonMedia`) with their video
    /// made again with a keyframe every second, so that Kodi's seek lands at the intro's end.
    @Test func kodiSkipsTheIntroTheAnalysisFoundThroughAServerLayoutMount() throws {
        let folder = try TempFolder("kodi-season")
        defer { folder.remove() }
        let season = try folder.makeFolder("source/Show/Season 1")
        for episode in SeasonMedia.episodes {
            let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", try SeasonMedia.seasonFolder().path + "/" + episode.name,
                                        "-map", "0", "-c:a", "copy", "-c:v", "libx264", "-preset", "ultrafast", "-g", "5",
                                        season + "/" + episode.name], timeout: 120)
            guard made.succeeded else { throw HarnessError("remaking \(episode.name) failed: \(made)") }
        }
        let watched = SeasonMedia.episodes[3]
        try Mount.with(source: folder.path("source"), point: try folder.makeFolder("mnt"), log: folder.path("log"),
                       arguments: ["--layout", "server"]) { mount in
            let client = MountedTreeClient(point: mount.point)
            _ = try client.attributeText("user.mediafs.analysis", of: "Show/Season 1/" + watched.name)
            let edlName = "Show/Season 1/" + watched.name.replacingOccurrences(of: ".mkv", with: ".edl")
            #expect(try client.names("Show/Season 1").contains((edlName as NSString).lastPathComponent))
            let lines = String(decoding: try client.read(edlName), as: UTF8.self).split(separator: "\n")
            let intro = try #require(lines.first?.split(separator: " ").compactMap { Double($0) })
            #expect(intro.count == 3 && intro[2] == 3, "\(lines)")
            #expect(abs(intro[0] - watched.intro.lowerBound) < 0.5 && abs(intro[1] - watched.intro.upperBound) < 0.5,
                    "the intro in \(edlName): \(intro), made at \(watched.intro)")
            try assertKodiSkips(file: mount.path("Show/Season 1/" + watched.name), from: intro[0], to: intro[1])
        }
    }

    /// Without the list, Kodi plays the same seconds through.
    @Test func withoutTheListKodiPlaysThrough() throws {
        try Self.withEpisode("kodi-no-edl", edl: nil) { episode in
            try assertKodiPlaysThrough(file: episode, from: 10, to: 40)
        }
    }
}
