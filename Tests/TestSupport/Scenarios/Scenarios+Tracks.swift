import Glibc
import Testing

/// tracks/: the groups, the names in the reader's language first, whole files as long as stat
/// says (TracksFolderTests, TracksTests).
extension ScenarioGroup {
    public static let tracks = ScenarioGroup(name: "tracks", languages: ["fr"], scenarios: [
        Scenario("groups are listed as the media has them") { c throws in
            for relative in ["movie-1080p.mkv", "feature-1080p.mp4", "clips/clip-vp9.webm"] {
                let tracks = relative + "/tracks"
                let folder = try c.client.stat(tracks)
                #expect(folder.type == .directory && folder.permissions == 0o555, c.at(tracks))
                let listed = try c.client.list(tracks)
                #expect(listed.map(\.name) == MediaFolderLayout.markers + ["audible", "legible"], c.at(tracks))
                let groups = listed.filter { !MediaFolderLayout.isMarker($0.name) }
                #expect(groups.allSatisfy { $0.type == .directory }, c.at(tracks))
            }
            // One video stream: nothing visual.
            #expect(c.statFailure("clips/clip-vp9.webm/tracks/visual") == ENOENT, c.at("clip-vp9.webm/tracks/visual"))
            #expect(c.statFailure("clips/clip-vp9.webm/tracks/audible/no such track.mka") == ENOENT, c.at("no such track.mka"))
        },

        Scenario("names come in stream order, the reader's language first") { c throws in
            let movie = "movie-1080p.mkv/tracks/"
            #expect(try c.client.list(movie + "audible").map(\.name) == [
                "fra French AC-3 stereo (default) [Français].mka", "eng English AAC 5.1 [English 5.1].mka",
                "deu German Opus stereo [Deutsch].mka",
            ], c.at(movie + "audible"))
            #expect(try c.client.list(movie + "legible").map(\.name) == [
                "fra French ASS (forced) [Français (forcé)].srt", "fra French ASS (forced) [Français (forcé)].vtt",
                "fra French ASS (forced) [Français (forcé)].ass", "eng English SRT.srt", "eng English SRT.vtt",
                "eng English SRT (SDH) [English SDH].srt", "eng English SRT (SDH) [English SDH].vtt",
            ], c.at(movie + "legible"))
            #expect(try c.client.list("feature-1080p.mp4/tracks/audible").map(\.name).sorted()
                    == ["eng English AAC stereo (default).mka", "spa Spanish AAC stereo.mka"], c.at("feature-1080p.mp4"))
            #expect(try c.client.list("feature-1080p.mp4/tracks/legible").map(\.name).sorted()
                    == ["eng English Timed Text (default).srt", "eng English Timed Text (default).vtt"], c.at("feature-1080p.mp4"))
            #expect(try c.client.list("clips/clip-vp9.webm/tracks/legible").map(\.name).sorted()
                    == ["eng English WebVTT.srt", "eng English WebVTT.vtt"], c.at("clip-vp9.webm"))
            #expect(try c.client.list("clips/clip-vp9.webm/tracks/audible").map(\.name) == ["eng English Opus mono.mka"],
                    c.at("clip-vp9.webm"))
        },

        Scenario("a track file is as long as stat says, the same at every read") { c throws in
            var files = 0
            for relative in ["movie-1080p.mkv/tracks", "clips/clip-vp9.webm/tracks"] {
                for group in try c.client.list(relative).map(\.name) where !MediaFolderLayout.isMarker(group) {
                    for (entry, status) in try c.listAndStat(relative + "/" + group) {
                        let path = relative + "/" + group + "/" + entry.name
                        #expect(status.type == .regular && status.permissions == 0o444 && status.size > 0, c.at(path))
                        #expect(try c.readWhole(path) == (try c.client.read(path)), c.at(path))
                        files += 1
                    }
                }
            }
            #expect(files == 10 + 3, c.at("track files"))
            let english = "The quick brown fox jumps over the lazy dog."
            let text = String(decoding: try c.client.read("clips/clip-vp9.webm/tracks/legible/eng English WebVTT.srt"), as: UTF8.self)
            #expect(text.hasPrefix("1\n00:00:00,0") && text.contains("\neng #1: \(english)\n"), c.at("eng English WebVTT.srt"))
        },
    ])
}
