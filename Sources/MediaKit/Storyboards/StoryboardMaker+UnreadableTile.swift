/// The tile that stands where a sheet's frame cannot be read or decoded for good.
extension StoryboardMaker {
    static let unreadableBackground: (UInt8, UInt8, UInt8) = (48, 48, 48)
    static let unreadableCross: (UInt8, UInt8, UInt8) = (176, 40, 40)
    static let unreadableWord = "unreadable"

    /// A `width` × `height` tile that says its frame could not be read: dark grey, crossed from
    /// corner to corner in red, with "unreadable" across its middle where the word fits. No frame
    /// of a film looks like it, and a black tile would pass for a dark scene or a fade.
    static func unreadableTile(width: Int, height: Int) -> RGBImage {
        var tile = RGBImage(width: width, height: height, color: unreadableBackground)
        let thickness = max(1, min(width, height) / 24)
        for x in 0..<width {
            let y = x * height / max(1, width)
            tile.fill(x: x, y: y - thickness / 2, width: 1, height: thickness, color: unreadableCross)
            tile.fill(x: x, y: height - 1 - y - thickness / 2, width: 1, height: thickness, color: unreadableCross)
        }
        let wordWidth = BitmapFont.width(of: unreadableWord, scale: 1)
        if wordWidth + 4 <= width && BitmapFont.glyphHeight + 4 <= height {
            let (x, y) = ((width - wordWidth) / 2, (height - BitmapFont.glyphHeight) / 2)
            tile.fill(x: x - 2, y: y - 2, width: wordWidth + 4, height: BitmapFont.glyphHeight + 4, color: unreadableBackground)
            BitmapFont.draw(unreadableWord, into: &tile, x: x, y: y, scale: 1, color: textColor)
        }
        return tile
    }
}
