/// The pixel size of a thumbnail, worked out from the probe alone.
///
/// The tree calls this at `stat` time to know a picture file's size without decoding (the length
/// `ImageEncoder` writes in either format depends only on width and height), so it is plain
/// integer arithmetic on `MediaInfo` values:
/// the same stream and box give the same size on every call and every machine.
public enum ThumbnailGeometry {
    public struct Size: Codable, Sendable, Hashable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public var description: String { "\(width)x\(height)" }
    }

    /// The size of the thumbnail of `stream` fitted in `box`: the display size (coded size × sample
    /// aspect ratio, turned for a 90°/270° display matrix), scaled down with its aspect kept to
    /// fit the box (never up), each side at least 1 and at most `ImageEncoder.maximumSide`.
    ///
    /// Nil for a stream without a size (not video) or a box with a side below 1.
    public static func outputSize(of stream: MediaInfo.Stream, box: ThumbnailBox) -> Size? {
        guard let display = displaySize(of: stream) else { return nil }
        let limit = ImageEncoder.maximumSide
        switch box {
        case .width(let w):
            guard w >= 1 else { return nil }
            return fit(display, width: min(w, limit), height: limit)
        case .height(let h):
            guard h >= 1 else { return nil }
            return fit(display, width: limit, height: min(h, limit))
        case .box(let w, let h):
            guard w >= 1, h >= 1 else { return nil }
            return fit(display, width: min(w, limit), height: min(h, limit))
        case .full:
            return fit(display, width: limit, height: limit)
        }
    }

    /// The size a player shows `stream` at: the coded width stretched by the sample aspect ratio
    /// (720×576 at 64:45 shows as 1024×576), width and height swapped for a quarter turn.
    /// Nil for a stream without a positive size.
    public static func displaySize(of stream: MediaInfo.Stream) -> Size? {
        guard let codedWidth = stream.width, let codedHeight = stream.height,
              codedWidth > 0, codedHeight > 0 else { return nil }
        var width = codedWidth
        if let (num, den) = sampleAspectRatio(stream.sampleAspectRatio) {
            width = max(1, divideRounded(codedWidth * num, den))
        }
        if clockwiseQuarterTurns(rotation: stream.rotation) % 2 == 1 {
            return Size(width: codedHeight, height: width)
        }
        return Size(width: width, height: codedHeight)
    }

    /// How many quarter turns clockwise make the decoded picture upright, from the probe's
    /// `rotation` (degrees counter-clockwise, as ffprobe and `av_display_rotation_get` give it):
    /// −90 is one turn clockwise, +90 three (one counter-clockwise), as ffmpeg's autorotation
    /// turns them. Rounded to the nearest quarter; 0 for none.
    public static func clockwiseQuarterTurns(rotation: Double?) -> Int {
        guard let rotation, rotation.isFinite else { return 0 }
        let turns = Int((-rotation / 90).rounded())
        return ((turns % 4) + 4) % 4
    }

    /// `size` scaled down to fit `width` × `height`, aspect kept, never enlarged.
    static func fit(_ size: Size, width: Int, height: Int) -> Size {
        if size.width <= width && size.height <= height { return size }
        // Wider than the box (compared as cross products, exactly): the width is the bound.
        if size.width * height >= size.height * width {
            return Size(width: width, height: max(1, divideRounded(size.height * width, size.width)))
        }
        return Size(width: max(1, divideRounded(size.width * height, size.height)), height: height)
    }

    /// `"64:45"` as (64, 45); nil for nil, malformed or non-positive ratios.
    static func sampleAspectRatio(_ text: String?) -> (Int, Int)? {
        guard let text else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let num = Int(parts[0]), let den = Int(parts[1]), num > 0, den > 0 else { return nil }
        return (num, den)
    }

    /// `a / b` rounded to the nearest integer, halves up (a ≥ 0, b > 0).
    static func divideRounded(_ a: Int, _ b: Int) -> Int { (2 * a + b) / (2 * b) }
}
