import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Open groups of pictures: a periodic keyframe (an H.264 I-frame, an HEVC CRA frame) shown after
/// two B-frames coded after it that refer to it, the first of them a cut's first frame. Decoded
/// alone, keyframes come out of an H.264 decoder out of order (the open GOP's I-frame before the
/// IDR frame before it, which waits for the end of the input): each must still be shown as its
/// own packet's picture, in the analysis's survey and in the search for the keyframe nearest a
/// time where no index lists them (MPEG-TS).
@Suite struct OpenGOPTests {
    /// 49 frames of one pattern, then 31 of another, 25 fps, a keyframe every 50 frames and none
    /// at the cut, written as `name` in a new folder by `encoder` with `options`: the cut at
    /// frame 49, a B-frame, before the keyframe at 50.
    static func film(_ name: String, _ encoder: String, _ options: [String]) throws -> (path: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("open-gop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y",
                                    "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25,trim=end_frame=49,format=yuv420p",
                                    "-f", "lavfi", "-i", "mandelbrot=size=320x240:rate=25,trim=end_frame=31,format=yuv420p",
                                    "-filter_complex", "[0][1]concat=n=2:v=1[v]", "-map", "[v]", "-c:v", encoder, "-g", "50",
                                    "-bf", "3"] + options + [path], timeout: 60)
        try #require(made.succeeded, "\(made)")
        let types = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "frame=pict_type",
                                     "-of", "csv=p=0", path], timeout: 60)
        let pictures = types.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        try #require(pictures.count == 80 && pictures[49] == "B" && pictures[50] == "I", "\(encoder) coded \(pictures)")
        return (path, folder)
    }

    static let x264 = ("libx264", ["-x264-params", "open-gop=1:scenecut=0"])
    static let x265 = ("libx265", ["-x265-params", "log-level=error:open-gop=1:scenecut=0:min-keyint=50:bframes=3"])

    @Test(arguments: [x264, x265])
    func theCutIsFoundAtItsFrame(_ encoder: String, _ options: [String]) throws {
        let (path, folder) = try Self.film("open.mkv", encoder, options)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (list, _) = try SceneDetector(file: SceneFilms.mediaFile(atPath: path), request: AnalysisRequest(), probed: nil).run()
        #expect(list.cuts.map(\.frame) == [49], "\(encoder)")
    }

    /// `near-` in an MPEG-TS (no index: the keyframes searched for) and in Matroska (its cues):
    /// the picture of the keyframe nearer the time, frame 0 or 50.
    @Test(arguments: ["open.ts", "open.mkv"])
    func theNearestKeyframeIsItsOwnPicture(_ name: String) throws {
        let (path, folder) = try Self.film(name, Self.x264.0, Self.x264.1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (width, height) = (64, 48)
        func ffmpeg(_ frame: Int) throws -> [UInt8] {
            try FFmpegFrames.run(["-v", "error", "-i", path, "-vf", "select=eq(n\\,\(frame)),scale=\(width):\(height)",
                                  "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        }
        func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
            Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count))
        }
        let first = try ffmpeg(0), second = try ffmpeg(50)
        let media = try SceneFilms.mediaFile(atPath: path)
        for (time, expected) in [(0.0, 0), (0.8, 0), (1.5, 50), (2.6, 50)] {
            let request = ThumbnailRequest(streamIndex: 0, time: time, pick: .nearestKeyframe, width: width, height: height)
            let ours = try StoredPNG(LocalMediaService().thumbnail(of: media, request: request).bytes).rgb
            let (near, far) = expected == 0 ? (first, second) : (second, first)
            #expect(difference(ours, near) < difference(ours, far) / 4, "near \(time) s in \(name): not frame \(expected)")
        }
    }
}
