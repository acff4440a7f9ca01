import Foundation

/// Runs the ffmpeg command, for what the tests compare against.
enum FFmpegFrames {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// ffmpeg's standard output for `arguments`; throws on a non-zero exit.
    static func run(_ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-hide_banner"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "ffmpeg \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return [UInt8](data)
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
