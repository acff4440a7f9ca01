import Foundation

/// What the ffprobe and ffmpeg commands say about a file, for checking extracted tracks against
/// their source with tools that share no code with the extraction.
public enum FFprobe {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `ffprobe -show_streams` as JSON objects, one per stream.
    public static func streams(_ path: String) throws -> [[String: Any]] {
        let result = try Command.run(["ffprobe", "-v", "error", "-of", "json", "-show_streams", path], timeout: 30)
        guard result.succeeded else { throw Failure(description: "\(result)") }
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return json?["streams"] as? [[String: Any]] ?? []
    }

    /// `ffprobe -show_format` as a JSON object (`duration`, `format_name`, … as ffprobe spells them).
    public static func format(_ path: String) throws -> [String: Any] {
        let result = try Command.run(["ffprobe", "-v", "error", "-of", "json", "-show_format", path], timeout: 30)
        guard result.succeeded else { throw Failure(description: "\(result)") }
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return json?["format"] as? [String: Any] ?? [:]
    }

    /// The packets of stream `index` (as ffprobe counts streams): pts and duration in seconds.
    public static func packets(_ path: String, stream index: Int) throws -> [(pts: Double, duration: Double)] {
        let result = try Command.run(["ffprobe", "-v", "error", "-select_streams", String(index),
                                      "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", path], timeout: 60)
        guard result.succeeded else { throw Failure(description: "\(result)") }
        return result.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count >= 2, let pts = Double(fields[0]) else { return nil }
            return (pts, Double(fields[1]) ?? 0)
        }
    }

    /// How long a stream lasts by its packets: from the first packet's time to the end of the
    /// last; and the longest packet (one frame of that stream).
    public static func span(_ path: String, stream index: Int) throws -> (start: Double, duration: Double, frame: Double, count: Int) {
        let packets = try packets(path, stream: index)
        guard let first = packets.map(\.pts).min(),
              let last = packets.map({ $0.pts + $0.duration }).max() else {
            throw Failure(description: "no packets in stream \(index) of \(path)")
        }
        return (first, last - first, packets.map(\.duration).max() ?? 0, packets.count)
    }

    /// `ffmpeg -i FILE -map 0:s:N -c:s CODEC OUTPUT`: the ffmpeg command's own conversion of
    /// subtitle stream `n` (as `-map 0:s:N` counts) with the encoder `codec` (`srt`, `webvtt`) into
    /// `output`, whose extension picks the muxer; the bytes it wrote. With `bitExact`, the input
    /// and output are bit-exact (`-fflags +bitexact`, and `-flags:s +bitexact` for the encoder).
    public static func ffmpegSubtitles(_ path: String, subtitle n: Int, codec: String, output: String,
                                bitExact: Bool = false) throws -> Data {
        let input = bitExact ? ["-fflags", "+bitexact"] : []
        let flags = bitExact ? ["-fflags", "+bitexact", "-flags:s", "+bitexact"] : []
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + input + ["-i", path, "-map", "0:s:\(n)",
                                      "-c:s", codec] + flags + [output], timeout: 60)
        guard result.succeeded else { throw Failure(description: "\(result)") }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    /// `ffmpeg -i FILE -map 0:s:N -f srt -`: the ffmpeg command's own conversion to SubRip, with
    /// the CR LF it puts between the lines of one cue made LF like every other line end.
    public static func ffmpegSRT(_ path: String, subtitle n: Int) throws -> String {
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", "0:s:\(n)", "-f", "srt", "-"], timeout: 60)
        guard result.succeeded else { throw Failure(description: "\(result)") }
        return result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }
}
