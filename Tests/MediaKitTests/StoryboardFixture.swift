import SystemPackage
import Foundation
import Glibc
@testable import MediaKit
import TestSupport

/// A clip made for storyboards and contact sheets with the ffmpeg command, the first time a test
/// asks for it (kept in `.build/test-media/storyboards`): testsrc2, 320×180, 10 fps, 95 s,
/// H.264 with 3 B-frames in MP4, the frame-index strip along the bottom (as
/// scripts/make-media.sh draws it), keyframes only where `keyframeTimes` says (irregular
/// gaps, one tie at 60 s between 58 and 62), and every frame from 35.5 s to 40.5 s black, strip
/// included, so the keyframes at 36 s and 38 s are blank.
enum StoryboardFixture {
    static let fps = 10.0
    static let duration = 95.0
    static let keyframeTimes = [0, 3.3, 7, 12.5, 21, 24, 29.9, 33, 36, 38, 41, 47.5, 52, 58, 62, 66, 70, 77, 83.3, 88, 94]
    static let blank = 35.5...40.5
    /// Bump to make the clip again after changing the command.
    static let version = 1

    private static let made = Result { try make() }

    /// The clip, probed, as the thumbnail tests hold their files.
    static func video() throws -> LibraryVideo {
        let url = try made.get()
        return try LibraryVideo(absolutePath: url.path)
    }

    private static func make() throws -> URL {
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/storyboards")
        let file = folder.appendingPathComponent("board-v\(version).mp4")
        if FileManager.default.fileExists(atPath: file.path) { return file }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = folder.appendingPathComponent("board-v\(version).partial.mp4")
        let graph = "testsrc2=s=320x180:r=10:d=\(Int(duration))[base];"
            + "color=c=black:s=16x1:r=10,format=gray,geq=lum='255*mod(floor(N/pow(2\\,15-X))\\,2)',"
            + "scale=320:11:flags=neighbor[bits];"
            + "[base][bits]overlay=x=0:y=H-h:shortest=1,format=yuv420p,"
            + "drawbox=x=0:y=0:w=iw:h=ih:color=black:t=fill:enable='between(t,\(blank.lowerBound),\(blank.upperBound))'[v]"
        let keys = keyframeTimes.map { String($0) }.joined(separator: ",")
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-filter_complex", graph, "-map", "[v]",
                                      "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-bf", "3",
                                      "-g", "10000", "-keyint_min", "10000", "-sc_threshold", "0", "-flags", "+cgop",
                                      "-force_key_frames", keys, "-f", "mp4", partial.path], timeout: 300)
        guard result.succeeded else { throw StoredPNG.Malformed(description: "ffmpeg: \(result)") }
        try FileManager.default.moveItem(at: partial, to: file)
        return file
    }

    /// The presentation times of the video packets ffprobe flags as keyframes (`K`), in seconds
    /// from the stream's first frame (the earliest packet's presentation time).
    static func ffprobeKeyframes(_ path: String) throws -> [Double] {
        let result = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0",
                                      "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", path], timeout: 120)
        guard result.succeeded else { throw StoredPNG.Malformed(description: "ffprobe: \(result)") }
        let packets = result.stdout.split(separator: "\n").compactMap { line -> (time: Double, key: Bool)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]) else { return nil }
            return (time, fields[1].contains("K"))
        }
        let start = packets.map(\.time).min() ?? 0
        return packets.filter(\.key).map { $0.time - start }.sorted()
    }

    /// Of `keyframes`, the one nearest `time`; the earlier of two equally near (to the microsecond).
    static func nearest(_ keyframes: [Double], to time: Double) -> Double {
        keyframes.min { a, b in
            let da = (abs(a - time) * 1e6).rounded(), db = (abs(b - time) * 1e6).rounded()
            return da < db || (da == db && a < b)
        }!
    }
}

extension LibraryVideo {
    /// A file outside the test library, probed.
    init(absolutePath path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw StoredPNG.Malformed(description: "cannot stat \(path)") }
        let file = MediaFile(path: FilePath(path), size: Int64(st.st_size),
                             modificationNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        let info = try Prober.probe(path: FilePath(path), size: file.size)
        guard let video = info.streams.first(where: \.isMovingVideo) else {
            throw StoredPNG.Malformed(description: "\(path) has no video")
        }
        self.file = file
        self.info = info
        self.video = video
    }
}
