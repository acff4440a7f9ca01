import Foundation
import Testing
import TestSupport

/// DivX's packed B-frames (libxvid writes them in AVI: a B-frame in the packet of the P-frame
/// coded before it, then a placeholder packet), copied by `ffmpeg -c copy` into Matroska: the
/// copy's packet times are the right times on the wrong packets, each B-frame's on the P-frame
/// coded before it, so the decoder's frames come out timed 120, 160, 240, 200 ms. A player shows
/// them in the decoder's order, at the times sorted; `thumbs/at-T` of every frame's time shows
/// that frame (the decoder's frame, as the ffmpeg command decodes it, told by the bit strip it
/// carries), in order and out of it, and the analysis finds every cut to the frame in the AVI and
/// in its copy.
@Suite(.mounts) struct PackedBFramesTests {
    /// Test-pattern shots, joined: each cut's frame is the sum of the lengths before it.
    static let shots = [("testsrc2=size=320x180:rate=25", 40), ("mandelbrot=size=320x180:rate=25", 33),
                        ("smptehdbars=size=320x180:rate=25", 36), ("testsrc=size=320x180:rate=25", 31)]
    static var cuts: [Int] { shots.dropLast().indices.map { i in shots[...i].reduce(0) { $0 + $1.1 } } }

    /// `NAME.avi` (libxvid, two B-frames, a keyframe every 12 frames, closed groups of pictures as
    /// Xvid makes by default) of the shots, with the frame-index strip of `FrameIndexStrip` along
    /// their bottom where `strip` (its bits flipping at once would be a cut of part of the
    /// picture: the scenes are found in a film without), and `NAME.mkv`, its copy.
    static func makeFilms(_ name: String, in folder: String, strip: Bool) throws {
        var arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y"]
        for (source, frames) in shots { arguments += ["-f", "lavfi", "-i", "\(source),trim=end_frame=\(frames),format=yuv420p"] }
        let inputs = shots.indices.map { "[\($0):v]" }.joined()
        let bits = "color=c=black:s=16x1:r=25,format=gray,geq=lum='255*mod(floor(N/pow(2\\,15-X))\\,2)',"
            + "scale=320:11:flags=neighbor[bits];[joined][bits]overlay=x=0:y=H-h:shortest=1,format=yuv420p[v]"
        let graph = "\(inputs)concat=n=\(shots.count):v=1:a=0" + (strip ? "[joined];" + bits : "[v]")
        arguments += ["-filter_complex", graph, "-map", "[v]",
                      "-c:v", "libxvid", "-bf", "2", "-g", "12", "-flags", "+cgop", "-q:v", "4", "\(folder)/\(name).avi"]
        let made = try Command.run(arguments, timeout: 120)
        guard made.succeeded else { throw HarnessError("making \(name).avi failed: \(made)") }
        // The AVI keeps no presentation times: Matroska needs them worked out (genpts).
        let copied = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-fflags", "+genpts", "-i", "\(folder)/\(name).avi",
                                      "-c", "copy", "\(folder)/\(name).mkv"], timeout: 60)
        guard copied.succeeded else { throw HarnessError("copying \(name).avi failed: \(copied)") }
    }

    /// The frame indices `path`'s frames carry (`FrameIndexStrip`), in the decoder's order, as the
    /// ffmpeg command decodes them.
    static func decodedIndices(_ path: String, scratch: String) throws -> [Int] {
        let decoded = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", path, "-map", "0:v", "-fps_mode", "passthrough",
                                       "-f", "rawvideo", "-pix_fmt", "gray", scratch], timeout: 60)
        guard decoded.succeeded else { throw HarnessError("decoding \(path) failed: \(decoded)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch)))
        let (width, height) = (320, 180)
        let row = (height - 1 - height / 32) * width
        return stride(from: 0, to: bytes.count - width * height + 1, by: width * height).map { start in
            (0..<16).reduce(0) { value, bit in
                value << 1 | (bytes[start + row + Int((Double(bit) + 0.5) / 16 * Double(width))] > 128 ? 1 : 0)
            }
        }
    }

    /// The times ffprobe gives `path`'s video frames, in the decoder's order (milliseconds).
    static func frameTimes(_ path: String) throws -> [Int] {
        let probed = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "frame=pts",
                                      "-of", "csv=p=0", path], timeout: 60)
        guard probed.succeeded else { throw HarnessError("ffprobe failed: \(probed)") }
        return probed.stdout.split(whereSeparator: \.isNewline).compactMap { Int($0) }
    }

    @Test func everyFrameIsShownAtItsTimeAndEveryCutFound() throws {
        let folder = try TempFolder("packed-b")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try Self.makeFilms("Packed", in: source, strip: true)
        try Self.makeFilms("Shots", in: source, strip: false)
        // The case itself: the copy's frames come out of the decoder with times out of order.
        let times = try Self.frameTimes(source + "/Packed.mkv")
        try #require(times != times.sorted(), "the Matroska copy's frames came out in time order: nothing to test")
        let sorted = times.sorted()
        // The frames as the AVI and its copy decode: the frames encoded, the same in the film
        // without the strip, but for the last ones (libxvid's last frames are not all there).
        let expected = try Self.decodedIndices(source + "/Packed.mkv", scratch: folder.path("frames.gray"))
        try #require(expected.count == times.count && Array(expected.prefix(Self.cuts.last! + 1)) == Array(0...Self.cuts.last!),
                     "\(expected)")
        try #require(expected == (try Self.decodedIndices(source + "/Packed.avi", scratch: folder.path("frames.gray"))))

        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("log")) { mount in
            let client = MountedTreeClient(point: mount.point)
            func shown(_ frame: Int, size: String) throws -> Int {
                let seconds = String(format: "%.3f", Double(sorted[frame] - sorted[0]) / 1000)
                return FrameIndexStrip.read(try StoredPNG(try client.read("Packed.mkv/thumbs/at-\(seconds)s@\(size).png")))
            }
            // In order (decoding on from one frame to the next), then out of order (a seek each).
            let inOrder = try expected.indices.filter { try shown($0, size: "full") != expected[$0] }
            #expect(inOrder.isEmpty, "frames shown wrong in order: \(inOrder)")
            var generator = SeededGenerator(seed: 7)
            let outOfOrder = try expected.indices.shuffled(using: &generator).filter { try shown($0, size: "240w") != expected[$0] }
            #expect(outOfOrder.isEmpty, "frames shown wrong out of order: \(outOfOrder)")

            for film in ["Shots.avi", "Shots.mkv"] {
                _ = try client.attributeText("user.mediafs.analysis", of: film)
                let scenes = try #require(try client.json(film + "/info.json")["scenes"] as? [[String: Any]], "\(film)")
                #expect(scenes.compactMap { $0["frame"] as? Int } == [0] + Self.cuts, "\(film): \(scenes)")
            }
        }
    }
}
