import Foundation
@testable import MediaKit
import TestSupport

/// One short clip in every container libavformat commonly reads, made with the ffmpeg command
/// the first time a test asks (kept in `.build/test-media/containers`): testsrc2 with the frame
/// index strip along the bottom (as scripts/make-media.sh draws it), 320×180, 25 fps, 8 s, a
/// keyframe every 30 frames (1.2 s).
///
/// - `mp4`: H.264 with B-frames; `ts`: that stream remuxed with `-c copy` (times start at 1.4 s,
///   as the MPEG-TS muxer shifts them); `mkv`: the same remuxed;
/// - `mpg`: MPEG-2 with B-frames in an MPEG program stream (first time 0.5 s; at a low bitrate,
///   so that frames share packs and many packets, keyframes among them, carry no time);
/// - `avi`: MPEG-4 part 2; `webm`: VP8; `flv`: H.264 with B-frames;
/// - `two-keyframes.mp4`: the picture over 10 s, H.264 with keyframes at 0 and 5 s only.
enum ContainerFixture {
    static let fps = 25.0
    static let duration = 8
    static let containers = ["mp4", "ts", "mkv", "mpg", "avi", "webm", "flv"]
    /// Bump to make the clips again after changing the commands.
    static let version = 3

    private static let made = Result { try make() }

    /// The clip in `container` (one of `containers`), probed.
    static func video(_ container: String) throws -> LibraryVideo {
        try LibraryVideo(absolutePath: try made.get().appendingPathComponent("clip.\(container)").path)
    }

    /// The path of the clip in `container`.
    static func path(_ container: String) throws -> String {
        try made.get().appendingPathComponent("clip.\(container)").path
    }

    /// The 10 s clip with two keyframes, probed.
    static func twoKeyframes() throws -> LibraryVideo {
        try LibraryVideo(absolutePath: try made.get().appendingPathComponent("two-keyframes.mp4").path)
    }

    /// The times of the frames ffprobe decodes as keyframes (`-show_frames`, `key_frame`), in
    /// seconds from the first frame: the packets' times, where a keyframe's packet has one.
    static func ffprobeKeyframes(_ path: String) throws -> [Double] {
        let result = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                      "frame=key_frame,best_effort_timestamp_time", "-of", "csv=p=0", path], timeout: 120)
        guard result.succeeded else { throw StoredPNG.Malformed(description: "ffprobe: \(result)") }
        let frames = result.stdout.split(separator: "\n").compactMap { line -> (key: Bool, time: Double)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[1]) else { return nil }
            return (fields[0] == "1", time)
        }
        let start = frames.map(\.time).min() ?? 0
        return frames.filter(\.key).map { $0.time - start }.sorted()
    }

    private static func make() throws -> URL {
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/containers-v\(version)")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("clip.flv").path) { return folder }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let graph = "testsrc2=s=320x180:r=25:d=\(duration)[base];"
            + "color=c=black:s=16x1:r=25:d=\(duration),format=gray,geq=lum='255*mod(floor(N/pow(2\\,15-X))\\,2)',"
            + "scale=320:12:flags=neighbor[bits];[base][bits]overlay=x=0:y=H-h:shortest=1,format=yuv420p[v]"
        let gop = ["-g", "30", "-keyint_min", "30", "-sc_threshold", "0"]
        let source = ["-filter_complex", graph, "-map", "[v]"]
        func ffmpeg(_ arguments: [String], _ name: String) throws {
            let partial = folder.appendingPathComponent("partial-" + name).path
            let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments + [partial], timeout: 120)
            guard result.succeeded else { throw StoredPNG.Malformed(description: "ffmpeg \(name): \(result)") }
            try FileManager.default.moveItem(atPath: partial, toPath: folder.appendingPathComponent(name).path)
        }
        let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3"] + gop
        try ffmpeg(source + x264 + ["-f", "mp4"], "clip.mp4")
        let mp4 = folder.appendingPathComponent("clip.mp4").path
        try ffmpeg(["-i", mp4, "-c", "copy", "-f", "mpegts"], "clip.ts")
        try ffmpeg(["-i", mp4, "-c", "copy", "-f", "matroska"], "clip.mkv")
        try ffmpeg(source + ["-c:v", "mpeg2video", "-bf", "2", "-b:v", "150k"] + gop + ["-f", "vob"], "clip.mpg")
        try ffmpeg(source + ["-c:v", "mpeg4", "-q:v", "3"] + gop + ["-f", "avi"], "clip.avi")
        try ffmpeg(source + ["-c:v", "libvpx", "-b:v", "500k", "-deadline", "realtime"] + gop + ["-f", "webm"], "clip.webm")
        try ffmpeg(["-filter_complex", graph.replacingOccurrences(of: "d=\(duration)", with: "d=10"), "-map", "[v]",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "125", "-keyint_min", "125", "-sc_threshold", "0",
                    "-f", "mp4"], "two-keyframes.mp4")
        try ffmpeg(source + x264 + ["-f", "flv"], "clip.flv")
        return folder
    }
}
