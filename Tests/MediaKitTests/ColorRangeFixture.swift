import Foundation
@testable import MediaKit
import TestSupport

/// Clips whose colours are labelled otherwise than the test library's, made with the ffmpeg
/// command the first time a test asks (kept in `.build/test-media/color-v1`): testsrc2 with the
/// frame-index strip, 320×180, 25 fps, 2 s, a keyframe every second.
///
/// - `pq-full.mkv`: HDR10 as clips/hdr-pq.mkv is made (BT.709 values taken to BT.2020 PQ, white
///   at 1000 nits), in full range (as a Dolby Vision profile 5 base layer is);
/// - `pq-untagged.mkv`: the same in limited range, only the PQ transfer said: primaries, matrix
///   and range unspecified in the bitstream and the container;
/// - `sdr-full.mp4`: 8-bit H.264, BT.709, full range.
enum ColorRangeFixture {
    static let version = 1
    private static let made = Result { try make() }

    /// The clip named `name`, probed.
    static func video(_ name: String) throws -> LibraryVideo {
        try LibraryVideo(absolutePath: try made.get().appendingPathComponent(name).path)
    }

    private static func make() throws -> URL {
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/color-v\(version)")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("sdr-full.mp4").path) { return folder }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func ffmpeg(_ picture: String, _ arguments: [String], _ name: String) throws {
            let graph = "testsrc2=s=320x180:r=25:d=2[base];"
                + "color=c=black:s=16x1:r=25:d=2,format=gray,geq=lum='255*mod(floor(N/pow(2\\,15-X))\\,2)',"
                + "scale=320:12:flags=neighbor[bits];[base][bits]overlay=x=0:y=H-h:shortest=1,\(picture)[v]"
            let partial = folder.appendingPathComponent("partial-" + name).path
            let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-filter_complex", graph, "-map", "[v]"]
                                         + arguments + [partial], timeout: 120)
            guard result.succeeded else { throw StoredPNG.Malformed(description: "ffmpeg \(name): \(result)") }
            try FileManager.default.moveItem(atPath: partial, toPath: folder.appendingPathComponent(name).path)
        }
        func pq(range: String) -> String {
            "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=smpte2084:m=bt2020nc:p=bt2020:r=\(range):npl=1000,format=yuv420p10le"
        }
        let x265 = ["-c:v", "libx265", "-preset", "ultrafast", "-crf", "22", "-g", "25"]
        try ffmpeg(pq(range: "pc"), x265 + [
            "-x265-params", "colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:range=full:log-level=error",
            "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-color_range", "pc",
            "-f", "matroska"], "pq-full.mkv")
        // The frames' labels cleared, else the encoder writes them.
        try ffmpeg(pq(range: "tv") + ",setparams=color_primaries=unknown:colorspace=unknown:range=unknown", x265 + [
            "-x265-params", "transfer=smpte2084:log-level=error", "-color_trc", "smpte2084", "-f", "matroska"],
                   "pq-untagged.mkv")
        try ffmpeg("scale=out_range=pc:out_color_matrix=bt709,format=yuv420p", [
            "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-x264-params", "fullrange=on",
            "-color_range", "pc", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
            "-f", "mp4"], "sdr-full.mp4")
        return folder
    }
}
