/// Turns a subtitle's picture into black letters on white, as Tesseract reads best: the letters'
/// fill told apart from their outline, their shadow and the box behind them.
///
/// Subtitle letters are a fill (white, yellow) inside an outline (black), or a fill on a
/// translucent box, each a palette entry or, on DVDs, one of four colours with aliased edges.
/// Laid on white as they are, outlined letters read as hollow shapes. Here the opaque pixels are
/// split by lightness into two classes (Otsu's threshold); the class that borders the transparent
/// background more is the outline (or the box), the other the fill, whichever is the lighter.
/// Each pixel's ink is how far its lightness goes from the outline's towards the fill's, times
/// its opacity: anti-aliased edges stay grey, which Tesseract's models are trained on.
enum InkSeparation {
    /// Opacity (of 255) from which a pixel is part of what is drawn.
    static let opaque: UInt8 = 96
    /// Lightness classes closer than this are one colour: letters without an outline.
    static let oneColor = 40

    /// The letters of `picture`, black on white.
    static func ink(of picture: SubtitlePicture) -> GrayImage {
        let count = picture.width * picture.height
        var histogram = [Int](repeating: 0, count: 256)
        for index in 0..<count where picture.alpha[index] >= opaque { histogram[Int(picture.luma[index])] += 1 }
        let drawn = histogram.reduce(0, +)
        guard drawn > 0 else { return GrayImage(width: picture.width, height: picture.height) }
        let threshold = otsu(histogram)
        let light = mean(histogram, from: threshold, to: 256), dark = mean(histogram, from: 0, to: threshold)
        var ink = [UInt8](repeating: 255, count: count)
        guard let light, let dark, light - dark >= Double(oneColor) else {
            // One colour: the letters are whatever is drawn.
            for index in 0..<count { ink[index] = 255 - picture.alpha[index] }
            return GrayImage(width: picture.width, height: picture.height, pixels: ink)
        }
        let fillIsLight = borderShare(picture, light: true, threshold: threshold)
            <= borderShare(picture, light: false, threshold: threshold)
        let (fill, outline) = fillIsLight ? (light, dark) : (dark, light)
        let span = fill - outline
        for index in 0..<count {
            let alpha = Double(picture.alpha[index]) / 255
            guard alpha > 0 else { continue }
            let toward = max(0, min(1, (Double(picture.luma[index]) - outline) / span))
            ink[index] = UInt8((255 * (1 - toward * alpha)).rounded())
        }
        return GrayImage(width: picture.width, height: picture.height, pixels: ink)
    }

    /// Otsu's threshold of a histogram: the value that splits it into the two classes of least
    /// variance within (values below it, values from it).
    static func otsu(_ histogram: [Int]) -> Int {
        let total = Double(histogram.reduce(0, +))
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var below = 0.0, belowSum = 0.0, best = 0.0, threshold = 128
        for value in 0..<256 {
            below += Double(histogram[value])
            belowSum += Double(value * histogram[value])
            let above = total - below
            guard below > 0, above > 0 else { continue }
            let difference = belowSum / below - (sum - belowSum) / above
            let between = below * above * difference * difference
            if between > best { best = between; threshold = value + 1 }
        }
        return threshold
    }

    private static func mean(_ histogram: [Int], from: Int, to: Int) -> Double? {
        var count = 0, sum = 0
        for value in from..<to { count += histogram[value]; sum += value * histogram[value] }
        return count > 0 ? Double(sum) / Double(count) : nil
    }

    /// The share of one class's pixels that touch the transparent background (or the picture's
    /// edge) on one of their four sides.
    private static func borderShare(_ picture: SubtitlePicture, light: Bool, threshold: Int) -> Double {
        let width = picture.width, height = picture.height
        func drawn(_ x: Int, _ y: Int) -> Bool {
            x >= 0 && y >= 0 && x < width && y < height && picture.alpha[y * width + x] >= opaque
        }
        var members = 0, touching = 0
        for y in 0..<height {
            for x in 0..<width where drawn(x, y) && (Int(picture.luma[y * width + x]) >= threshold) == light {
                members += 1
                if !drawn(x - 1, y) || !drawn(x + 1, y) || !drawn(x, y - 1) || !drawn(x, y + 1) { touching += 1 }
            }
        }
        return members > 0 ? Double(touching) / Double(members) : 1
    }
}
