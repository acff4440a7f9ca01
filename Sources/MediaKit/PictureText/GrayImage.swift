/// An 8-bit grey picture, row by row: 255 is paper, 0 is ink. What Tesseract is given.
struct GrayImage: Equatable {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A blank page.
    init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height))
    }

    subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// The part from `x`, `y` of `width` × `height`.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> GrayImage {
        var out = [UInt8](repeating: 255, count: width * height)
        for row in 0..<height {
            let from = (y + row) * self.width + x
            out.replaceSubrange(row * width..<(row + 1) * width, with: pixels[from..<from + width])
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The same picture on a page `margin` pixels larger on every side.
    func padded(by margin: Int) -> GrayImage {
        var out = GrayImage(width: width + 2 * margin, height: height + 2 * margin)
        for row in 0..<height {
            let to = (row + margin) * out.width + margin
            out.pixels.replaceSubrange(to..<to + width, with: pixels[row * width..<(row + 1) * width])
        }
        return out
    }

    /// The picture resampled by `factor` in both directions: each output pixel the mean of the
    /// area it covers in the source (bilinear where it enlarges), so thin strokes neither vanish
    /// nor break into steps.
    func scaled(by factor: Double) -> GrayImage {
        let newWidth = max(1, Int((Double(width) * factor).rounded()))
        let newHeight = max(1, Int((Double(height) * factor).rounded()))
        var out = [UInt8](repeating: 255, count: newWidth * newHeight)
        let stepX = Double(width) / Double(newWidth), stepY = Double(height) / Double(newHeight)
        pixels.withUnsafeBufferPointer { source in
            for row in 0..<newHeight {
                for column in 0..<newWidth {
                    out[row * newWidth + column] = factor >= 1
                        ? bilinear(source, x: (Double(column) + 0.5) * stepX - 0.5, y: (Double(row) + 0.5) * stepY - 0.5)
                        : areaMean(source, x0: Double(column) * stepX, y0: Double(row) * stepY, width: stepX, height: stepY)
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// The picture sheared horizontally by `slope` (pixels per row), rows higher up moved left, so
    /// that letters slanting right by that slope stand upright; widened to hold them.
    func upright(slope: Double) -> GrayImage {
        let shift = Int((slope * Double(height)).rounded(.up))
        let newWidth = width + shift
        var out = [UInt8](repeating: 255, count: newWidth * height)
        pixels.withUnsafeBufferPointer { source in
            for row in 0..<height {
                let offset = slope * Double(height - 1 - row)  // the bottom row stays
                for column in 0..<newWidth {
                    let x = Double(column) + offset - Double(shift)
                    guard x > -1, x < Double(width) else { continue }
                    out[row * newWidth + column] = bilinear(source, x: x, y: Double(row))
                }
            }
        }
        return GrayImage(width: newWidth, height: height, pixels: out)
    }

    private func bilinear(_ source: UnsafeBufferPointer<UInt8>, x: Double, y: Double) -> UInt8 {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Double(x0), fy = y - Double(y0)
        func at(_ px: Int, _ py: Int) -> Double {
            guard px >= 0, py >= 0, px < width, py < height else { return 255 }
            return Double(source[py * width + px])
        }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
    }

    private func areaMean(_ source: UnsafeBufferPointer<UInt8>, x0: Double, y0: Double, width areaWidth: Double,
                          height areaHeight: Double) -> UInt8 {
        var total = 0.0
        var row = Int(y0)
        while Double(row) < y0 + areaHeight, row < height {
            let cover = min(Double(row + 1), y0 + areaHeight) - max(Double(row), y0)
            var column = Int(x0)
            while Double(column) < x0 + areaWidth, column < width {
                let across = min(Double(column + 1), x0 + areaWidth) - max(Double(column), x0)
                total += Double(source[row * width + column]) * across * cover
                column += 1
            }
            row += 1
        }
        return UInt8(max(0, min(255, (total / (areaWidth * areaHeight)).rounded())))
    }
}
