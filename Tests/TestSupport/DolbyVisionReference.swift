import Foundation
import Glibc

/// What the pictures of a Dolby Vision clip (`DolbyVisionClip`) are checked against, all made by
/// the ffmpeg command: the known picture tone-mapped by `ToneMapReference`'s chain; the clip read
/// as if its planes were PQ BT.2020 YCbCr (what mediafs showed before it applied the RPU); and
/// libplacebo's rendering of the clip (ffmpeg's `libplacebo` filter, `apply_dolbyvision`, on
/// Vulkan: Mesa's lavapipe on a machine without a GPU).
public enum DolbyVisionReference {
    /// `picture` tone-mapped by `ToneMapReference.chain` with `tonemap`'s peak at `peakNits`
    /// (the RPU's mastering display peak, as mediafs takes it), scaled to `width` × `height` RGB24.
    public static func toneMapped(_ picture: DolbyVisionClip.Picture, peakNits: Double, width: Int,
                                  height: Int) throws -> [UInt8] {
        let input = try Command.scratchFile("dv-picture")
        defer { unlink(input) }
        try picture.planarRGB16().write(to: URL(fileURLWithPath: input))
        let chain = ToneMapReference.chain.replacingOccurrences(
            of: "tonemap=hable:desat=0", with: "tonemap=hable:desat=0:peak=\(peakNits / 100)")
        guard chain != ToneMapReference.chain else { throw HarnessError("ToneMapReference.chain has no tonemap=hable:desat=0") }
        return try rgb24(["-f", "rawvideo", "-pix_fmt", "gbrp16le", "-s", "\(picture.width)x\(picture.height)", "-i", input],
                         filters: "setparams=color_primaries=bt2020:color_trc=smpte2084:colorspace=gbr:range=pc,"
                             + chain + ",scale=\(width):\(height)", count: width * height * 3)
    }

    /// The clip's frame at `time` with its planes taken as full-range PQ BT.2020 YCbCr, through
    /// `ToneMapReference.chain`: the green and purple picture of a player without Dolby Vision.
    public static func readAsYCbCr(_ path: String, at time: Double, width: Int, height: Int) throws -> [UInt8] {
        try rgb24(["-ss", String(time), "-i", path],
                  filters: "setparams=color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc:range=pc,"
                      + ToneMapReference.chain + ",scale=\(width):\(height)", count: width * height * 3)
    }

    /// Why libplacebo cannot render here (the filter missing, no Vulkan device), or nil.
    public static let libplaceboMissing: String? = {
        let probe = try? Command.run(["ffmpeg", "-nostdin", "-v", "error", "-init_hw_device", "vulkan=vk",
                                      "-filter_hw_device", "vk", "-f", "lavfi", "-i", "testsrc2=s=64x36:d=0.1",
                                      "-vf", "format=yuv420p,hwupload,libplacebo=format=yuv420p,hwdownload,format=yuv420p",
                                      "-frames:v", "1", "-f", "null", "-"], timeout: 60)
        guard let probe, probe.succeeded else {
            return "ffmpeg's libplacebo filter does not run here (apt-get install mesa-vulkan-drivers): \(probe.map(\.stderr) ?? "")"
        }
        return nil
    }()

    /// libplacebo's frame of the clip at `time`, the RPU applied, at the clip's size, not tone
    /// mapped: PQ BT.2020 R'G'B', three values 0 to 1 a pixel.
    public static func libplacebo(_ path: String, at time: Double, width: Int, height: Int) throws -> [Double] {
        let out = try Command.scratchFile("libplacebo")
        defer { unlink(out) }
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-init_hw_device", "vulkan=vk",
                                      "-filter_hw_device", "vk", "-ss", String(time), "-i", path, "-frames:v", "1", "-vf",
                                      "hwupload,libplacebo=apply_dolbyvision=1:colorspace=gbr:color_primaries=bt2020:"
                                          + "color_trc=smpte2084:range=pc:format=rgba64le,hwdownload,format=rgba64le",
                                      "-f", "rawvideo", out], timeout: 120)
        guard result.succeeded else { throw HarnessError("libplacebo failed: \(result)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        guard bytes.count == 8 * width * height else { throw HarnessError("libplacebo gave \(bytes.count) bytes") }
        return (0..<(width * height)).flatMap { i in
            (0..<3).map { c in Double(UInt16(bytes[8 * i + 2 * c]) | UInt16(bytes[8 * i + 2 * c + 1]) << 8) / 65535 }
        }
    }

    /// libplacebo's frame of the clip at `time`, tone-mapped by libplacebo to BT.709 (its own
    /// tone mapping, not the chain's), scaled to `width` × `height` RGB24.
    public static func libplaceboToneMapped(_ path: String, at time: Double, width: Int, height: Int) throws -> [UInt8] {
        try rgb24(["-init_hw_device", "vulkan=vk", "-filter_hw_device", "vk", "-ss", String(time), "-i", path],
                  filters: "hwupload,libplacebo=apply_dolbyvision=1:colorspace=bt709:color_primaries=bt709:"
                      + "color_trc=bt709:range=tv:format=yuv420p,hwdownload,format=yuv420p,scale=\(width):\(height)",
                  count: width * height * 3)
    }

    /// The mean absolute difference of each channel of two pictures of values 0 to 1, times 255.
    public static func distance(_ a: [Double], _ b: [Double]) -> [Double] {
        precondition(a.count == b.count && a.count % 3 == 0, "pictures of different sizes")
        var sums = [0.0, 0.0, 0.0]
        for i in a.indices { sums[i % 3] += abs(a[i] - b[i]) }
        return sums.map { 255 * $0 / Double(a.count / 3) }
    }

    /// One frame through `filters` as RGB24 from the ffmpeg command with `input` arguments.
    static func rgb24(_ input: [String], filters: String, count: Int) throws -> [UInt8] {
        let out = try Command.scratchFile("dv-reference")
        defer { unlink(out) }
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + input
                                     + ["-frames:v", "1", "-vf", filters, "-f", "rawvideo", "-pix_fmt", "rgb24", out],
                                     timeout: 120)
        guard result.succeeded else { throw HarnessError("the reference frame failed: \(result)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        guard bytes.count == count else { throw HarnessError("the reference frame has \(bytes.count) bytes, not \(count)") }
        return bytes
    }
}
