/// Text drawn into pictures with a small bitmap font built into mediafs: the 95 printable ASCII
/// characters of the X11 misc-fixed 6×10 font (public domain; `BitmapFont+Glyphs.swift`, made by
/// scripts/make-bitmap-font.py), each pixel drawn as a `scale` × `scale` square. No font library
/// and no font file is needed at run time, and the same text gives the same pixels everywhere.
///
/// Only ASCII is drawn: every other character (an accented letter, a CJK name) is drawn as `?`
/// (`printable(_:)`), one per Unicode scalar.
enum BitmapFont {
    /// A glyph's cell, in font pixels: characters are drawn `glyphWidth` × `scale` apart.
    static let glyphWidth = 6
    static let glyphHeight = 10

    /// `text` as the characters drawn: printable ASCII kept, tabs as spaces, anything else `?`.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            if scalar == "\t" { return " " }
            return (0x20...0x7E).contains(scalar.value) ? scalar : "?"
        }))
    }

    /// `text` (printable) cut to at most `limit` characters, ending in `...` when cut.
    static func fitted(_ text: String, limit: Int) -> String {
        let drawn = printable(text)
        guard drawn.count > limit else { return drawn }
        guard limit > 3 else { return String(drawn.prefix(max(0, limit))) }
        return drawn.prefix(limit - 3) + "..."
    }

    /// The width in pixels of `text` drawn at `scale`.
    static func width(of text: String, scale: Int) -> Int {
        text.unicodeScalars.count * glyphWidth * scale
    }

    /// Draws `text` with the top-left corner of its first cell at (`x`, `y`), in `color`, each
    /// font pixel a `scale` × `scale` square; the background is left as it is.
    static func draw(_ text: String, into image: inout RGBImage, x: Int, y: Int, scale: Int,
                     color: (UInt8, UInt8, UInt8)) {
        var left = x
        for scalar in printable(text).unicodeScalars {
            let base = (Int(scalar.value) - 0x20) * glyphHeight
            for row in 0..<glyphHeight {
                let bits = glyphRows[base + row]
                guard bits != 0 else { continue }
                for column in 0..<glyphWidth where bits & (0x20 >> UInt8(column)) != 0 {
                    image.fill(x: left + column * scale, y: y + row * scale, width: scale, height: scale, color: color)
                }
            }
            left += glyphWidth * scale
        }
    }
}
