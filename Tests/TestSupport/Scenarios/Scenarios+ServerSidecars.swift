import Foundation
import Glibc
import Testing

/// The sidecar subtitles beside a film: one file per subtitle track, named for the servers and
/// mpv, with the bytes the ffmpeg command (and mkvextract, for VobSub) makes of the track.
extension ScenarioGroup {
    /// The server film's sidecars, by name: the subtitle stream (`0:s:N`) and how the ffmpeg
    /// command writes it.
    static let sidecarsOfTheServerFilm: [(name: String, stream: Int, codec: String)] = [
        ("subtitled.Kommentar.ger.srt", 4, "srt"), ("subtitled.eng.forced.srt", 1, "srt"),
        ("subtitled.eng.sdh.srt", 2, "srt"), ("subtitled.eng.srt", 0, "srt"), ("subtitled.fre.ass", 5, "copy"),
        ("subtitled.ger.srt", 3, "srt"), ("subtitled.ita.idx", 7, "vobsub"), ("subtitled.ita.sub", 7, "vobsub"),
        ("subtitled.spa.sup", 6, "copy"),
    ]

    static let serverSidecars: [Scenario] = [
        Scenario("each subtitle track is one sidecar, named for the servers and mpv, sized once its pass ran") { c throws in
            let sidecars = { (listed: [ListedEntry]) in
                listed.filter { ["srt", "ass", "ssa", "sup", "idx", "sub", "mks"].contains(($0.name as NSString).pathExtension) }
            }
            let first = sidecars(try c.client.list(""))
            #expect(first.filter { $0.name.hasPrefix("subtitled.") }.map(\.name).sorted() == sidecarsOfTheServerFilm.map(\.name),
                    c.at("the server film's sidecars"))
            #expect(first.filter { $0.name.hasPrefix("movie-1080p.") }.map(\.name).sorted()
                    == ["movie-1080p.eng.sdh.srt", "movie-1080p.eng.srt", "movie-1080p.fre.forced.ass"], c.at("movie-1080p"))
            // Both films of base clip-vp9 would name one; the first in name order has it.
            #expect(first.filter { $0.name.hasPrefix("clip-vp9.") }.isEmpty, c.at("the root"))
            #expect(sidecars(try c.client.list("clips")).map(\.name) == ["clip-vp9.eng.srt"], c.at("clips"))
            // One pass per film (the two films of the root with subtitles; `feature-1080p`'s one
            // sidecar is the source's).
            try c.listAndStat("")
            #expect(try c.statistics()["sidecar_sets_made"] ?? 0 <= 3, c.at("one pass per film"))
            // Once the pass ran, a listing has every size.
            let again = sidecars(try c.client.list(""))
            for entry in again where entry.name.hasPrefix("subtitled.") {
                #expect(entry.size == (try c.client.stat(entry.name).size), c.at(entry.name))
            }
        },

        Scenario("a sidecar holds what the ffmpeg command makes of its track") { c throws in
            let film = c.source + "/subtitled.mkv"
            let work = NSTemporaryDirectory() + "mediafs-sidecars-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            for (name, stream, codec) in sidecarsOfTheServerFilm {
                let expected: [UInt8]
                if codec == "vobsub" {
                    guard access("/usr/bin/mkvextract", X_OK) == 0 else { continue }
                    let track = 2 + stream  // video and audio come first
                    let result = try Command.run(["mkvextract", film, "tracks", "\(track):\(work)/vobsub.idx"], timeout: 60)
                    #expect(result.succeeded, "\(result)")
                    expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: work + "/vobsub." + (name as NSString).pathExtension)))
                } else {
                    let out = work + "/" + name
                    let format = codec == "copy" ? [] : ["-f", "srt"]
                    let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", film, "-map", "0:s:\(stream)",
                                                  "-c:s", codec] + format + [out], timeout: 60)
                    #expect(result.succeeded, "\(result)")
                    expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
                }
                #expect(try c.readWhole(name) == expected, c.at(name))
            }
            // The source's own sidecar wins over the one the layout would make.
            #expect(try c.client.read("feature-1080p.eng.srt") == (try c.sourceBytes("feature-1080p.eng.srt")), c.at("own sidecar"))
        },
    ]
}
