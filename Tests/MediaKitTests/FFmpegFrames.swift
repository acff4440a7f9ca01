import Foundation
import Glibc
import TestSupport

/// Runs the ffmpeg command, for what the tests compare against.
enum FFmpegFrames {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs ffmpeg with `arguments`; when the last is `-` (standard output), what it writes there,
    /// as bytes (through a scratch file: `Command` never gives a pipe), else nothing. Throws on a
    /// non-zero exit.
    @discardableResult
    static func run(_ arguments: [String]) throws -> [UInt8] {
        let toStandardOutput = arguments.last == "-"
        let output = try Command.scratchFile("ffmpeg")
        defer { unlink(output) }
        let result = try Command.run(["ffmpeg", "-nostdin", "-hide_banner"] + (toStandardOutput ? ["-y"] + arguments.dropLast() + [output] : arguments),
                                     timeout: 120)
        guard result.succeeded else { throw Failed(description: "\(result)") }
        return toStandardOutput ? [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))) : []
    }

    /// The frame ffmpeg shows from `time` seconds (`-ss` before `-i`: the first frame at or after
    /// it; the first frame, without a seek, at 0: ffmpeg 5.1 sought to 0 in an FLV file with
    /// B-frames shows a frame seconds later), scaled to `width` × `height` RGB24 with its default
    /// (bicubic) scaler, autorotated.
    static func frame(_ path: String, at time: Double, width: Int, height: Int) throws -> [UInt8] {
        try run(["-v", "error"] + (time > 0 ? ["-ss", String(time)] : []) + ["-i", path, "-frames:v", "1",
                 "-vf", "scale=\(width):\(height)", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
    }
}
