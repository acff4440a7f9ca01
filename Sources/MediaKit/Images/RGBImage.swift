/// An 8-bit RGB picture in memory: `height` rows of `3 * width` bytes, each `stride` bytes apart.
public struct RGBImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next (at least `3 * width`; rows may be padded for alignment).
    public var stride: Int
    public var pixels: [UInt8]

    /// A picture of the given pixels. `pixels.count` must be at least `stride * height`.
    public init(width: Int, height: Int, stride: Int? = nil, pixels: [UInt8]) {
        precondition(width >= 1 && height >= 1, "an image has at least one pixel")
        let stride = stride ?? 3 * width
        precondition(stride >= 3 * width && pixels.count >= stride * height, "too few bytes for the size")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// A black picture whose rows are `alignment`-byte aligned (swscale writes faster to aligned rows).
    init(width: Int, height: Int, alignment: Int) {
        let stride = (3 * width + alignment - 1) / alignment * alignment
        self.init(width: width, height: height, stride: stride, pixels: [UInt8](repeating: 0, count: stride * height))
    }

    /// The picture turned clockwise by `quarterTurns` × 90° (0…3; other values are taken modulo 4).
    /// A quarter turn moves the bottom row to the left column, so width and height swap.
    public func rotated(clockwiseQuarterTurns quarterTurns: Int) -> RGBImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return self }
        let outWidth = turns == 2 ? width : height
        let outHeight = turns == 2 ? height : width
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        let (w, h, inStride) = (width, height, stride)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Where the output pixel (x, y) comes from in the source.
                        let (sx, sy): (Int, Int)
                        switch turns {
                        case 1: (sx, sy) = (y, h - 1 - x)
                        case 2: (sx, sy) = (w - 1 - x, h - 1 - y)
                        default: (sx, sy) = (w - 1 - y, x)
                        }
                        let from = sy * inStride + sx * 3
                        let to = (y * outWidth + x) * 3
                        dst[to] = src[from]
                        dst[to + 1] = src[from + 1]
                        dst[to + 2] = src[from + 2]
                    }
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: out)
    }

    /// The mean luma of the picture, 0 (black) to 255 (white), with BT.601 weights on the RGB
    /// values (77 R + 150 G + 29 B) / 256: a cheap measure of how dark it is.
    public var meanLuma: Double {
        var total = 0
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let row = y * stride
                for x in 0..<width {
                    let at = row + 3 * x
                    total += (77 * Int(p[at]) + 150 * Int(p[at + 1]) + 29 * Int(p[at + 2])) >> 8
                }
            }
        }
        return Double(total) / Double(width * height)
    }
}
