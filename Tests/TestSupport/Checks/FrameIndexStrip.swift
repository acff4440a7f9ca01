/// Reads the frame index that scripts/make-media.sh draws into every frame: 16 cells along the
/// bottom 1/16 of the picture, most significant bit on the left, white = 1.
public enum FrameIndexStrip {
    /// The index in an upright picture, or in one turned clockwise by `quarterTurns` (the strip is
    /// then along the left edge, most significant bit at the top, for one turn).
    public static func read(_ png: StoredPNG, clockwiseQuarterTurns quarterTurns: Int = 0) -> Int {
        var value = 0
        for bit in 0..<16 {
            let along = (Double(bit) + 0.5) / 16
            let (x, y): (Int, Int)
            switch quarterTurns % 4 {
            case 1: (x, y) = (png.width / 32, Int(along * Double(png.height)))
            case 2: (x, y) = (png.width - 1 - Int(along * Double(png.width)), png.height / 32)
            case 3: (x, y) = (png.width - 1 - png.width / 32, png.height - 1 - Int(along * Double(png.height)))
            default: (x, y) = (Int(along * Double(png.width)), png.height - 1 - png.height / 32)
            }
            value = value << 1 | (png.brightness(x, y) > 128 ? 1 : 0)
        }
        return value
    }
}
