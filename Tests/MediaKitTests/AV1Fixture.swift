import Foundation
@testable import MediaKit
import TestSupport

/// Clips for leaving out unreferenced frames, made with the ffmpeg command the first time a test
/// asks (kept in `.build/test-media/av1-v1`): testsrc2 with the frame index strip along the
/// bottom (as scripts/make-media.sh draws it), 25 fps, 3 s.
///
/// - `clip.mkv`: 640×360 AV1 from SVT-AV1 (preset 12, random access: hidden alt-ref frames, frames
///   shown again, and frames no other refers to), a keyframe every 25 frames; `clip.mp4`: the
///   same stream remuxed (its av1C configuration in MP4 rather than Matroska);
/// - `gap.mp4`: 320×180 H.264 with non-reference B-frames (`b-pyramid=none`), a keyframe every
///   50 frames, and a second's gap after frame 29 (a B-frame): frames 30 on are presented 1 s
///   later than their rate says.
enum AV1Fixture {
    static let fps = 25.0
    static let version = 1

    /// Why the clips cannot be made here (no SVT-AV1 in ffmpeg), or nil.
    static let missing: String? = {
        guard let result = try? Command.run(["ffmpeg", "-hide_banner", "-encoders"], timeout: 30), result.succeeded else {
            return "ffmpeg does not run"
        }
        return result.stdout.contains("libsvtav1") ? nil : "ffmpeg has no libsvtav1 encoder (Debian's ffmpeg has)"
    }()

    private static let made = Result { try make() }

    /// The path of `name` (`clip.mkv`, `clip.mp4`, `gap.mp4`).
    static func path(_ name: String) throws -> String {
        try made.get().appendingPathComponent(name).path
    }

    /// `name`, probed.
    static func video(_ name: String) throws -> LibraryVideo {
        try LibraryVideo(absolutePath: try path(name))
    }

    /// testsrc2 at `width`×`height` with the strip, `more` filters after, as [v].
    private static func graph(width: Int, height: Int, more: String = "") -> String {
        "testsrc2=s=\(width)x\(height):r=25:d=3[base];"
            + "color=c=black:s=16x1:r=25:d=3,format=gray,geq=lum='255*mod(floor(N/pow(2\\,15-X))\\,2)',"
            + "scale=\(width):\(height / 15):flags=neighbor[bits];[base][bits]overlay=x=0:y=H-h:shortest=1,format=yuv420p\(more)[v]"
    }

    private static func make() throws -> URL {
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/av1-v\(version)")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("gap.mp4").path) { return folder }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func ffmpeg(_ arguments: [String], _ name: String) throws {
            let partial = folder.appendingPathComponent("partial-" + name).path
            let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments + [partial], timeout: 120)
            guard result.succeeded else { throw StoredPNG.Malformed(description: "ffmpeg \(name): \(result)") }
            try FileManager.default.moveItem(atPath: partial, toPath: folder.appendingPathComponent(name).path)
        }
        try ffmpeg(["-filter_complex", graph(width: 640, height: 360), "-map", "[v]", "-c:v", "libsvtav1", "-preset", "12",
                    "-crf", "35", "-g", "25", "-svtav1-params", "keyint=25", "-f", "matroska"], "clip.mkv")
        try ffmpeg(["-i", folder.appendingPathComponent("clip.mkv").path, "-c", "copy", "-f", "mp4"], "clip.mp4")
        try ffmpeg(["-filter_complex", graph(width: 320, height: 180, more: ",setpts='(N+25*gte(N\\,30))/(25*TB)'"),
                    "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "50", "-keyint_min", "50",
                    "-sc_threshold", "0", "-x264-params", "b-adapt=0:b-pyramid=none", "-fps_mode", "passthrough",
                    "-f", "mp4"], "gap.mp4")
        return folder
    }
}
