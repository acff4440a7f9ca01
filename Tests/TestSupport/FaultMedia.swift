import Foundation

/// Two small films for the fault tests, made with the ffmpeg command the first time a test asks
/// (in `.build/test-media/faults`, kept until `recipe` changes): 8 s of testsrc2 at 320×180,
/// 25 fps, H.264 with B-frames and a keyframe every second, an AAC track, English subtitles and
/// three chapters; `film.mp4` with its index at the front (`+faststart`: a disk failing part way
/// still lets it open), `film.mkv` the same streams in Matroska.
public enum FaultMedia {
    /// In the order `copy(into:)` writes them: on a fresh file system, the MP4 lies after the
    /// Matroska film.
    public static let names = ["film.mkv", "film.mp4"]
    public static let duration = 8
    static let recipe = "fault-media 1"

    private static let made = Result { try make() }

    /// The folder holding the films.
    public static func folder() throws -> URL { try made.get() }

    /// Copies the films into `destination` (which must exist).
    public static func copy(into destination: String) throws {
        for name in names {
            try FileManager.default.copyItem(atPath: try folder().appendingPathComponent(name).path,
                                             toPath: destination + "/" + name)
        }
    }

    private static func make() throws -> URL {
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/faults")
        let stamp = folder.appendingPathComponent("recipe")
        if (try? String(contentsOf: stamp, encoding: .utf8)) == recipe,
           names.allSatisfy({ FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }) {
            return folder
        }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let subtitles = folder.appendingPathComponent("film.srt").path
        let chapters = folder.appendingPathComponent("chapters.txt").path
        try (1...4).map { "\($0)\n00:00:0\(2 * $0 - 2),000 --> 00:00:0\(2 * $0 - 1),500\nLine \($0)\n" }
            .joined(separator: "\n").write(toFile: subtitles, atomically: true, encoding: .utf8)
        try ([";FFMETADATA1"] + (0..<3).flatMap { i in
            ["[CHAPTER]", "TIMEBASE=1/1000", "START=\(i * 2700)", "END=\(min(8000, (i + 1) * 2700))", "title=Part \(i + 1)"]
        }).joined(separator: "\n").write(toFile: chapters, atomically: true, encoding: .utf8)
        let video = ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=\(duration)",
                     "-f", "lavfi", "-i", "sine=f=440:d=\(duration)", "-i", subtitles, "-i", chapters,
                     "-map", "0:v", "-map", "1:a", "-map", "2:s", "-map_metadata", "3", "-map_chapters", "3",
                     "-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "25", "-pix_fmt", "yuv420p",
                     "-c:a", "aac", "-b:a", "64k", "-metadata:s:s:0", "language=eng"]
        func ffmpeg(_ arguments: [String], _ name: String) throws {
            let partial = folder.appendingPathComponent("partial-" + name).path
            let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments + [partial], timeout: 120)
            guard result.succeeded else { throw TestMediaError(message: "ffmpeg \(name): \(result)") }
            try FileManager.default.moveItem(atPath: partial, toPath: folder.appendingPathComponent(name).path)
        }
        try ffmpeg(video + ["-c:s", "mov_text", "-movflags", "+faststart", "-f", "mp4"], "film.mp4")
        try ffmpeg(video + ["-c:s", "srt", "-f", "matroska"], "film.mkv")
        try recipe.write(to: stamp, atomically: true, encoding: .utf8)
        return folder
    }
}
