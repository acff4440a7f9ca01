import Foundation
import Glibc
import Testing
import TestSupport

/// The analysis through a real mount: a film of test-pattern shots joined at known frames, its
/// scenes found by `user.mediafs.analysis` (getfattr's call) and shown in `info.json` and
/// `scenes/` with sizes exact at every moment; the background analysing what a listing met, and a
/// remount analysing nothing.
@Suite(.mounts) struct AnalysisMountTests {
    /// The shots: lavfi sources unlike each other, some moving, joined in this order; each cut's
    /// frame is the sum of the lengths before it (25 frames a second).
    static let shots: [(source: String, frames: Int)] = [
        ("testsrc2=size=320x180:rate=25", 60), ("mandelbrot=size=320x180:rate=25", 45),
        ("smptehdbars=size=320x180:rate=25", 38), ("cellauto=size=320x180:rate=25:rule=110", 70),
        ("rgbtestsrc=size=320x180:rate=25", 27), ("life=size=320x180:rate=25:ratio=0.5", 52),
    ]
    static var cuts: [Int] { shots.dropLast().indices.map { i in shots[...i].reduce(0) { $0 + $1.frames } } }

    /// `Cuts.mkv` in `folder`: the shots in a row, H.264 as x264 encodes by default (a keyframe at
    /// each cut it notices) or with a keyframe every 50 frames only (`fixedGOP`).
    static func makeFilm(_ path: String, fixedGOP: Bool = false) throws {
        var arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y"]
        for shot in shots { arguments += ["-f", "lavfi", "-i", "\(shot.source),trim=end_frame=\(shot.frames),format=yuv420p"] }
        let inputs = shots.indices.map { "[\($0):v]" }.joined()
        arguments += ["-filter_complex", "\(inputs)concat=n=\(shots.count):v=1:a=0[v]", "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast"]
        if fixedGOP { arguments += ["-g", "50", "-x264-params", "scenecut=0"] }
        let made = try Command.run(arguments + [path], timeout: 120)
        guard made.succeeded else { throw HarnessError("making \(path) failed: \(made)") }
    }

    @Test func theAttributeFindsEveryCutAndTheMountShowsItWithExactSizes() throws {
        let folder = try TempFolder("analysis-mount")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try Self.makeFilm(source + "/Cuts.mkv")
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("log")) { mount in
            let client = MountedTreeClient(point: mount.point)
            let sizeBefore = try client.stat("Cuts.mkv/info.json").size
            #expect(try client.json("Cuts.mkv/info.json")["scenes"] == nil)
            #expect(!(try client.names("Cuts.mkv")).contains("scenes"))

            let summary = try client.attributeText("user.mediafs.analysis", of: "Cuts.mkv")
            #expect(summary == "{\"scenes\":\(Self.shots.count),\"segments\":[]}\n")
            // Told to the kernel before the answer: stat gives the new length at once.
            let info = try client.read("Cuts.mkv/info.json")
            #expect(try client.stat("Cuts.mkv/info.json").size == Int64(info.count))
            #expect(Int64(info.count) != sizeBefore)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
            let scenes = try #require(document["scenes"] as? [[String: Any]])
            let frames = scenes.compactMap { $0["frame"] as? Int }
            #expect(frames == [0] + Self.cuts, "scenes found: \(frames)")

            // scenes/: a picture per scene, the first frame of each, as thumbs/ shows it.
            let names = try client.names("Cuts.mkv/scenes").filter { $0.hasSuffix(".png") }
            #expect(names.count == Self.shots.count)
            for (name, scene) in zip(names, scenes) {
                let path = "Cuts.mkv/scenes/" + name
                let picture = try client.read(path)
                #expect(try client.stat(path).size == Int64(picture.count), "\(name)")
                #expect(picture == (try client.read("Cuts.mkv/thumbs/" + name)), "\(name)")
                let start = try #require(scene["start"] as? Double)
                #expect(abs((Double(try client.attributeText("user.mediafs.time", of: path)) ?? -1) - start) < 1e-6, "\(name)")
            }
            #expect(try client.statistics()["scene_analyses"] == 1)
            // Asked again, nothing is analysed again.
            _ = try client.attributeText("user.mediafs.analysis", of: "Cuts.mkv")
            #expect(try client.statistics()["scene_analyses"] == 1)
        }
    }

    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// A film of 14 s of a test pattern, then 18 s of names rising on black: `info.json` shows
    /// the credits its pictures show, found by `user.mediafs.analysis`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: font), "no DejaVu Sans (fonts-dejavu-core) to write credits with"))
    func aFilmEndingInCreditsOnBlackShowsThemAsASegment() throws {
        let folder = try TempFolder("analysis-credits")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let names = folder.path("names.txt")
        try Array(repeating: "Directed by\nANNA LINDQVIST\n\nMusic\nThe Quiet Hours Ensemble\n\nCAST\nElena ..... Maria Santos\n", count: 4)
            .joined().write(toFile: names, atomically: true, encoding: .utf8)
        let roll = "color=black:size=320x180:rate=25,drawtext=fontfile=\(Self.font):textfile=\(names):fontcolor=white:fontsize=10:"
            + "x=(w-tw)/2:y=h-20*t,trim=end_frame=450,format=yuv420p"
        let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y",
                                    "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25,trim=end_frame=350,format=yuv420p",
                                    "-f", "lavfi", "-i", roll, "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0[v]", "-map", "[v]",
                                    "-c:v", "libx264", "-preset", "veryfast", source + "/Credits.mkv"], timeout: 120)
        guard made.succeeded else { throw HarnessError("making the film failed: \(made)") }
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("log")) { mount in
            let client = MountedTreeClient(point: mount.point)
            _ = try client.attributeText("user.mediafs.analysis", of: "Credits.mkv")
            let segments = try #require(try client.json("Credits.mkv/info.json")["segments"] as? [[String: Any]])
            #expect(segments.count == 1, "\(segments)")
            #expect(segments.first?["kind"] as? String == "credits")
            #expect(segments.first?["found_by"] as? String == "text-on-black")
            let start = try #require(segments.first?["start"] as? Double), end = try #require(segments.first?["end"] as? Double)
            #expect(abs(start - 14) <= 0.5 && abs(end - 32) <= 0.5, "credits found from \(start) to \(end) s")
            #expect(try client.names("Credits.mkv/chapters").contains { $0.hasSuffix(" Credits.png") })
        }
    }

    @Test func theBackgroundAnalysesWhatTheMountMeetsAndARemountAnalysesNothing() throws {
        let folder = try TempFolder("analysis-background")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try Self.makeFilm(source + "/Cuts.mkv")
        try Self.makeFilm(source + "/Fixed.mkv", fixedGOP: true)
        let arguments = ["--analysis", "background", "--cache-dir", folder.path("cache")]
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("log"), arguments: arguments) { mount in
            let client = MountedTreeClient(point: mount.point)
            _ = try client.names("")
            // Polled once a second: the background waits while requests are served.
            let found = try Wait.until(60, poll: 1) {
                try ["Cuts.mkv", "Fixed.mkv"].allSatisfy { try client.json($0 + "/info.json")["scenes"] != nil }
            }
            #expect(found, "the background analysed the films the listing met: \((try? client.statistics()) ?? [:])")
            for film in ["Cuts.mkv", "Fixed.mkv"] {
                let scenes = try client.json(film + "/info.json")["scenes"] as? [[String: Any]] ?? []
                #expect(scenes.compactMap { $0["frame"] as? Int } == [0] + Self.cuts, "\(film)")
                #expect(try client.names(film).contains("scenes"))
            }
            #expect(try client.statistics()["scene_analyses"] == 2)
        }
        try Mount.with(source: source, point: point, log: folder.path("log2"), arguments: arguments) { mount in
            let client = MountedTreeClient(point: mount.point)
            _ = try client.names("")
            #expect(try Wait.until(30, poll: 1) { try client.statistics()["analyses_waiting"] == 0 })
            #expect(try client.json("Cuts.mkv/info.json")["scenes"] != nil)
            let statistics = try client.statistics()
            #expect(statistics["scene_analyses"] == 0 && statistics["audio_fingerprints"] == 0, "the remount analysed again: \(statistics)")
        }
    }
}
