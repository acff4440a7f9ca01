/// Composing pictures: sheets of tiles, boxes and text.
extension RGBImage {
    /// A `width` × `height` picture of one colour, rows packed.
    init(width: Int, height: Int, color: (UInt8, UInt8, UInt8)) {
        var pixels = [UInt8](repeating: 0, count: 3 * width * height)
        if color != (0, 0, 0) {
            for at in Swift.stride(from: 0, to: pixels.count, by: 3) {
                pixels[at] = color.0
                pixels[at + 1] = color.1
                pixels[at + 2] = color.2
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// Copies `picture` with its top-left corner at (`x`, `y`); what falls outside is cut off.
    mutating func draw(_ picture: RGBImage, x: Int, y: Int) {
        let left = max(0, x), right = min(width, x + picture.width)
        guard left < right else { return }
        let bytes = 3 * (right - left)
        let stride = self.stride, from = picture.stride
        pixels.withUnsafeMutableBufferPointer { to in
            picture.pixels.withUnsafeBufferPointer { source in
                for row in max(0, y)..<min(height, y + picture.height) {
                    let target = to.baseAddress! + row * stride + 3 * left
                    let origin = source.baseAddress! + (row - y) * from + 3 * (left - x)
                    target.update(from: origin, count: bytes)
                }
            }
        }
    }

    /// Paints the rectangle at (`x`, `y`) of `width` × `height` in `color`, cut to the picture.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: (UInt8, UInt8, UInt8)) {
        let left = max(0, x), right = min(width, x + w)
        guard left < right else { return }
        for row in max(0, y)..<min(height, y + h) {
            var at = row * stride + 3 * left
            for _ in left..<right {
                pixels[at] = color.0
                pixels[at + 1] = color.1
                pixels[at + 2] = color.2
                at += 3
            }
        }
    }

    /// How far the picture's luma strays from its mean: the standard deviation, 0 to 127.5, of
    /// the BT.601 luma of every fourth pixel of every fourth row (`meanLuma`'s weights). A
    /// picture of one colour (a black frame, a fade) is near 0; any scene with content is well
    /// above 10.
    var lumaDeviation: Double {
        var sum = 0, squares = 0, count = 0
        pixels.withUnsafeBufferPointer { p in
            for y in Swift.stride(from: 0, to: height, by: 4) {
                let row = y * stride
                for x in Swift.stride(from: 0, to: width, by: 4) {
                    let at = row + 3 * x
                    let luma = (77 * Int(p[at]) + 150 * Int(p[at + 1]) + 29 * Int(p[at + 2])) >> 8
                    sum += luma
                    squares += luma * luma
                    count += 1
                }
            }
        }
        let mean = Double(sum) / Double(count)
        return (max(0, Double(squares) / Double(count) - mean * mean)).squareRoot()
    }
}
