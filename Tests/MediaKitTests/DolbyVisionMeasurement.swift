import Foundation
import CAV
@testable import MediaKit
import Testing
import TestSupport

/// What reshaping Dolby Vision after the scaling changes, and what reshaping costs, on SDR films
/// given in `MEDIAFS_DV_MEASURE` (paths separated by `:`; skipped without it): a frame of each,
/// made PQ BT.2020 (white at 203 cd/m²) and coded as profile 5 for the tests' MMR RPU
/// (`DolbyVisionClip`), thumbnailed 320 wide two ways: reshaped at the output size (what mediafs
/// does) and reshaped at the frame's size then scaled and tone-mapped; both against the known
/// picture. Then the reshaping's time at both sizes. Prints the figures (a release build gives the
/// times worth quoting: `swift test -c release -Xswiftc -enable-testing`); asserts nothing else.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_DV_MEASURE"] != nil && DolbyVisionClip.missing == nil,
                "set MEDIAFS_DV_MEASURE=film.mp4[:film2.mkv] to measure Dolby Vision reshaping"),
       .serialized)
struct DolbyVisionMeasurement {
    static let films = (ProcessInfo.processInfo.environment["MEDIAFS_DV_MEASURE"] ?? "").split(separator: ":").map(String.init)

    @Test func reshapingAfterTheScaling() throws {
        let folder = try TempFolder("dolby-vision-measure")
        defer { folder.remove() }
        var clips: [(String, DolbyVisionClip.Picture)] = [(try DolbyVisionClip.testClip(), .test())]
        for (n, film) in Self.films.enumerated() {
            let picture = try Self.picture(of: film, at: 1)
            let path = folder.path("film-\(n).mkv")
            try DolbyVisionClip.make(picture, parts: [(DolbyVisionClip.mmrRPU, 2)], at: path)
            clips.append((path, picture))
        }
        for (path, picture) in clips {
            let clip = try LibraryVideo(absolutePath: path)
            let (_, frame) = try HDRThumbnailTests.frame(clip, at: 0)
            let width = 320, height = (320 * picture.height / picture.width + 1) / 2 * 2
            let converter = DolbyVisionConverter(), mapper = ToneMapper()
            let after = try converter.picture(of: frame, width: width, height: height, toneMapper: mapper)
            let full = try converter.reshaped(frame, width: picture.width, height: picture.height)
            let before = try mapper.convert(full, color: DolbyVisionConverter.reshapedColor, width: width, height: height)
            let known = try DolbyVisionReference.toneMapped(picture, peakNits: 1000, width: width, height: height)
            print("\(path) (\(picture.width)x\(picture.height)) at \(width)x\(height): reshaped after the scaling against "
                  + "before it \(ColorDistance(Self.tight(after), Self.tight(before))); after against the known picture "
                  + "\(ColorDistance(Self.tight(after), known)); before against the known picture "
                  + "\(ColorDistance(Self.tight(before), known))")
            let small = try Self.milliseconds { _ = try converter.reshaped(frame, width: width, height: height) }
            let large = try Self.milliseconds { _ = try converter.reshaped(frame, width: picture.width, height: picture.height) }
            let whole = try Self.milliseconds {
                _ = try converter.picture(of: frame, width: width, height: height, toneMapper: mapper)
            }
            let pixels = try Self.milliseconds {
                let reshaper = DolbyVisionReshaper(try #require(DolbyVisionMetadata(frame.pointer)))
                let n = picture.width * picture.height
                let input = [UInt16](repeating: 40_000, count: n)
                var out = [UInt16](repeating: 0, count: 3 * n)
                input.withUnsafeBufferPointer { i in
                    out.withUnsafeMutableBufferPointer { o in
                        let i = i.baseAddress!, o = o.baseAddress!
                        reshaper.run(y: i, cb: i, cr: i, count: n, scale: 1 / 65472, red: o, green: o + n, blue: o + 2 * n)
                    }
                }
            }
            print("\(path): the reshaper alone on \(picture.width)x\(picture.height) pixels \(pixels) ms")
            print("\(path): scaling and reshaping at \(width)x\(height) \(small) ms a frame, at \(picture.width)x"
                  + "\(picture.height) \(large) ms; scaling, reshaping and tone mapping at \(width)x\(height) \(whole) ms")
        }
    }

    /// The frame of `film` at `time` as a PQ BT.2020 picture, by the ffmpeg command.
    static func picture(of film: String, at time: Double) throws -> DolbyVisionClip.Picture {
        let size = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                    "stream=width,height", "-of", "csv=p=0", film])
        let wh = size.stdout.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard size.succeeded, wh.count >= 2 else { throw HarnessError("ffprobe \(film): \(size)") }
        let (w, h) = (wh[0] / 2 * 2, wh[1] / 2 * 2)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("dv-measure-\(getpid()).rgb48").path
        defer { unlink(out) }
        let decoded = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", String(time), "-i", film,
                                       "-frames:v", "1", "-vf", "scale=\(w):\(h)", "-f", "rawvideo", "-pix_fmt", "rgb48le", out])
        guard decoded.succeeded else { throw HarnessError("ffmpeg \(film): \(decoded)") }
        return .fromSDR(rgb48: try [UInt8](Data(contentsOf: URL(fileURLWithPath: out))), width: w, height: h)
    }

    /// The mean of 10 runs of `body` after one: the calling thread's CPU time in milliseconds (what
    /// a loaded machine changes little; every step runs on this thread), and the wall-clock time.
    static func milliseconds(_ body: () throws -> Void) rethrows -> String {
        func now(_ clock: clockid_t) -> Double {
            var t = timespec()
            clock_gettime(clock, &t)
            return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
        }
        try body()
        let cpu = now(CLOCK_THREAD_CPUTIME_ID), wall = now(CLOCK_MONOTONIC)
        for _ in 0..<10 { try body() }
        return String(format: "%.2f (wall %.2f)", (now(CLOCK_THREAD_CPUTIME_ID) - cpu) / 10, (now(CLOCK_MONOTONIC) - wall) / 10)
    }

    /// The picture's rows without their padding.
    static func tight(_ image: RGBImage) -> [UInt8] {
        (0..<image.height).flatMap { image.pixels[($0 * image.stride)..<($0 * image.stride + 3 * image.width)] }
    }
}
