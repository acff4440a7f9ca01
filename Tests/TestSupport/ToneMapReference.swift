import Foundation
import Glibc

/// What the tone-mapped thumbnails are checked against: the frame the ffmpeg command makes with
/// the usual tone-mapping chain (zscale + tonemap, as Jellyfin and most guides give it), then
/// scaled with its default scaler, and the distance between two pictures.
public enum ToneMapReference {
    /// The chain, as ffmpeg's users run it on the full-size frame.
    public static let chain = "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,"
        + "zscale=t=bt709:m=bt709:r=tv,format=yuv420p"

    /// The largest mean absolute difference per channel (of 255) allowed between a tone-mapped
    /// thumbnail and `frame(_:at:width:height:toneMapped:)`. Measured on the test clips (testsrc2:
    /// hard, saturated edges, the worst case for a scaler) 2.6–4.7; an SDR thumbnail against the
    /// ffmpeg command's own conversion is within 3 (ThumbnailTests).
    public static let tolerance = 6.0
    /// The smallest mean absolute difference (over the channels) from the picture made without
    /// tone mapping that a tone-mapped thumbnail must keep: measured 55–90 on the test clips.
    public static let untoneMappedDistance = 30.0

    /// The frame ffmpeg shows from `time` (`-ss` before `-i`), through `before` (filters that
    /// label what the file leaves unspecified, say) and `chain` when `toneMapped`, then
    /// `scale=W:H` to RGB24, autorotated.
    /// - Throws: `HarnessError` when the ffmpeg command fails.
    public static func frame(_ path: String, at time: Double, width: Int, height: Int,
                             toneMapped: Bool = true, before: String? = nil) throws -> [UInt8] {
        let out = try Command.scratchFile("reference")
        defer { unlink(out) }
        let filters = (before.map { $0 + "," } ?? "") + (toneMapped ? chain + "," : "") + "scale=\(width):\(height)"
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", String(time), "-i", path,
                                      "-frames:v", "1", "-vf", filters, "-f", "rawvideo", "-pix_fmt", "rgb24", out],
                                     timeout: 60)
        guard result.succeeded else { throw HarnessError("the reference frame failed: \(result)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        guard bytes.count == 3 * width * height else {
            throw HarnessError("the reference frame has \(bytes.count) bytes, not \(3 * width * height)")
        }
        return bytes
    }
}

/// How far apart two RGB24 pictures of the same size are.
public struct ColorDistance: CustomStringConvertible, Sendable {
    /// The mean absolute difference of red, green and blue, each 0…255.
    public let channels: [Double]
    /// Peak signal-to-noise ratio over all values, in dB (infinite for equal pictures).
    public let psnr: Double

    /// - Precondition: `a` and `b` hold the same number of bytes, a multiple of 3.
    public init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count && a.count % 3 == 0 && !a.isEmpty, "pictures of different sizes")
        var sums = [0, 0, 0], squares = 0
        for i in a.indices {
            let d = Int(a[i]) - Int(b[i])
            sums[i % 3] += abs(d)
            squares += d * d
        }
        let pixels = Double(a.count / 3)
        channels = sums.map { Double($0) / pixels }
        let mse = Double(squares) / Double(a.count)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The mean absolute difference of the channel that differs most.
    public var worstChannel: Double { channels.max() ?? 0 }
    /// The mean absolute difference over the three channels.
    public var mean: Double { channels.reduce(0, +) / 3 }

    public var description: String {
        "mean absolute difference R \(Self.rounded(channels[0])) G \(Self.rounded(channels[1])) B \(Self.rounded(channels[2])), PSNR \(Self.rounded(psnr)) dB"
    }

    private static func rounded(_ value: Double) -> String { String(format: "%.2f", value) }
}
