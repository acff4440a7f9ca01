import MediaKit

/// A name in `thumbs/`: `at-<time>[@<size>].png` (frame-accurate) or `near-<time>[@<size>].png`
/// (nearest keyframe), or the same with `.jpg`. The grammar is in Docs/LAYOUT.md.
public struct ThumbnailName: Hashable, Sendable {
    public var pick: FramePick
    public var time: NameTime.Value
    /// nil: the mount's default box (`--thumb-size`).
    public var box: ThumbnailBox?
    /// From the extension: `.png` or `.jpg` (`.jpeg` too).
    public var format: ImageFormat

    public init(pick: FramePick, time: NameTime.Value, box: ThumbnailBox? = nil, format: ImageFormat = .png) {
        self.pick = pick
        self.time = time
        self.box = box
        self.format = format
    }

    /// The largest width or height a size may ask for.
    static let maxSide = 16_384

    /// The name's meaning, or nil when `name` is not a thumbnail name.
    public static func parse(_ name: String) -> ThumbnailName? {
        // Strict, as the rest of the grammar: `.png` or `.jpg`, lowercase.
        guard let dot = name.lastIndex(of: "."), let format = ImageFormat(fileExtension: name[name.index(after: dot)...]),
              name[name.index(after: dot)...] == format.fileExtension else { return nil }
        let stem = name[..<dot]
        let pick: FramePick
        let rest: Substring
        if stem.hasPrefix("at-") {
            pick = .exact
            rest = stem.dropFirst(3)
        } else if stem.hasPrefix("near-") {
            pick = .nearestKeyframe
            rest = stem.dropFirst(5)
        } else {
            return nil
        }
        let pieces = rest.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let time = NameTime.parse(pieces[0]) else { return nil }
        guard pieces.count == 2 else { return ThumbnailName(pick: pick, time: time, format: format) }
        guard let box = parseBox(pieces[1]) else { return nil }
        return ThumbnailName(pick: pick, time: time, box: box, format: format)
    }

    /// `320w`, `180h`, `640x360` or `full`.
    public static func parseBox(_ text: Substring) -> ThumbnailBox? {
        if text == "full" { return .full }
        func side(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let n = Int(digits), n > 0, n <= maxSide else { return nil }
            return n
        }
        if text.hasSuffix("w") { return side(text.dropLast()).map(ThumbnailBox.width) }
        if text.hasSuffix("h") { return side(text.dropLast()).map(ThumbnailBox.height) }
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let w = side(sides[0]), let h = side(sides[1]) else { return nil }
        return .box(width: w, height: h)
    }
}
