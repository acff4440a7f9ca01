import CAV

/// A picture boiled down to what tells one shot from another: the mean of each plane (luma and
/// both chroma) over a coarse grid of cells, read straight from the decoded planes on a sparse
/// grid of samples. No scaling of the whole picture: a few thousand samples per plane, whatever
/// the frame's size, so a frame costs its decoding and next to nothing more.
struct PictureSignature: Sendable {
    /// Cells across and down (the same for every picture: the grid stretches with the frame).
    static let columns = 16, rows = 12
    /// Samples read per cell and plane, about (`step` follows from it).
    static let samplesPerCell = 24

    /// `columns × rows` cell means of Y, then of U, then of V, on a 0–255 scale.
    let cells: [Float]

    /// How unlike `other` this picture is, 0 (alike) to about 1: the mean absolute difference of
    /// the cells, luma counted twice as much as each chroma plane, on a 0–1 scale.
    func distance(to other: PictureSignature) -> Double {
        let n = Self.columns * Self.rows
        var luma: Float = 0, chroma: Float = 0
        for i in 0..<n { luma += abs(cells[i] - other.cells[i]) }
        for i in n..<(3 * n) { chroma += abs(cells[i] - other.cells[i]) }
        return Double(2 * luma + chroma) / Double(4 * n) / 255
    }

    /// As `distance(to:)`, but each cell of this picture is compared with the most alike of the
    /// cells around its place in `other` (one cell either way): a camera that moves or shakes
    /// moves the picture by less than a cell between frames, a cut changes it in place.
    func shiftedDistance(to other: PictureSignature) -> Double {
        var total: Float = 0
        for plane in 0..<3 {
            let base = plane * Self.columns * Self.rows
            var sum: Float = 0
            for row in 0..<Self.rows {
                for column in 0..<Self.columns {
                    let value = cells[base + row * Self.columns + column]
                    var best = Float.greatestFiniteMagnitude
                    for y in max(0, row - 1)...min(Self.rows - 1, row + 1) {
                        for x in max(0, column - 1)...min(Self.columns - 1, column + 1) {
                            best = min(best, abs(value - other.cells[base + y * Self.columns + x]))
                        }
                    }
                    sum += best
                }
            }
            total += plane == 0 ? 2 * sum : sum
        }
        return Double(total) / Double(4 * Self.columns * Self.rows) / 255
    }

    /// The signature of `frame`, from its planes where it is planar YUV (8 to 16 bits, any
    /// subsampling); otherwise (RGB, packed, palettes) from a small picture `fallback` makes.
    /// - Throws: `MediaError.imageFailed` where the frame has no size or format.
    init(of frame: Frame, fallback: Scaler) throws {
        let f = frame.pointer.pointee
        guard f.width > 0, f.height > 0, f.format >= 0 else {
            throw MediaError.imageFailed(reason: "the decoder gave a frame without a size or format")
        }
        let format = AVPixelFormat(rawValue: f.format)
        guard let descriptor = av_pix_fmt_desc_get(format)?.pointee, descriptor.nb_components >= 3,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM) == 0,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0,
              descriptor.comp.0.plane == 0, descriptor.comp.1.plane == 1, descriptor.comp.2.plane == 2,
              descriptor.comp.0.depth <= 16, descriptor.flags & UInt64(AV_PIX_FMT_FLAG_BE) == 0 else {
            self.init(rgb: try fallback.scale(frame, width: Self.columns * 4, height: Self.rows * 4))
            return
        }
        let depth = Int(descriptor.comp.0.depth)
        var cells = [Float](repeating: 0, count: 3 * Self.columns * Self.rows)
        var planes = f.data, strides = f.linesize
        let bases = withUnsafeBytes(of: &planes) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(3)) }
        let lineSizes = withUnsafeBytes(of: &strides) { Array($0.bindMemory(to: Int32.self).prefix(3)) }
        for plane in 0..<3 {
            let shiftX = plane == 0 ? 0 : Int(descriptor.log2_chroma_w)
            let shiftY = plane == 0 ? 0 : Int(descriptor.log2_chroma_h)
            let width = (Int(f.width) + (1 << shiftX) - 1) >> shiftX
            let height = (Int(f.height) + (1 << shiftY) - 1) >> shiftY
            guard let base = bases[plane] else {
                throw MediaError.imageFailed(reason: "the decoder gave a frame without plane \(plane)")
            }
            let cellMeans = Self.cellMeans(UnsafeRawPointer(base), stride: Int(lineSizes[plane]), width: width,
                                           height: height, depth: depth)
            cells.replaceSubrange((plane * cellMeans.count)..<((plane + 1) * cellMeans.count), with: cellMeans)
        }
        self.init(cells: cells)
    }

    private init(cells: [Float]) {
        self.cells = cells
    }

    /// From a small RGB picture: BT.601's luma and colour differences, as a YUV frame's planes.
    init(rgb image: RGBImage) {
        let n = Self.columns * Self.rows
        var cells = [Float](repeating: 0, count: 3 * n)
        var counts = [Float](repeating: 0, count: n)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let at = y * image.stride + 3 * x
                let (r, g, b) = (Float(image.pixels[at]), Float(image.pixels[at + 1]), Float(image.pixels[at + 2]))
                let cell = (y * Self.rows / image.height) * Self.columns + x * Self.columns / image.width
                let luma = 0.299 * r + 0.587 * g + 0.114 * b
                cells[cell] += luma
                cells[n + cell] += 128 + 0.564 * (b - luma)
                cells[2 * n + cell] += 128 + 0.713 * (r - luma)
                counts[cell] += 1
            }
        }
        for i in 0..<(3 * n) { cells[i] /= max(1, counts[i % n]) }
        self.cells = cells
    }

    /// The mean of each cell of one plane (samples of `depth` bits, one or two bytes each),
    /// taken every `step` pixels across and down.
    private static func cellMeans(_ base: UnsafeRawPointer, stride: Int, width: Int, height: Int, depth: Int) -> [Float] {
        var means = [Float](repeating: 0, count: columns * rows)
        let cellWidth = max(1, width / columns), cellHeight = max(1, height / rows)
        // Sparse, but dense enough that a cell's mean is not one pixel's whim.
        var step = 1
        while (cellWidth / (step + 1)) * (cellHeight / (step + 1)) >= samplesPerCell { step += 1 }
        let scale = Float(255) / Float((1 << depth) - 1)
        for row in 0..<rows {
            let top = row * height / rows, bottom = max(top + 1, (row + 1) * height / rows)
            for column in 0..<columns {
                let left = column * width / columns, right = max(left + 1, (column + 1) * width / columns)
                var total = 0, count = 0
                var y = top + step / 2
                while y < min(bottom, height) {
                    let line = base + y * stride
                    var x = left + step / 2
                    while x < min(right, width) {
                        total += depth <= 8 ? Int(line.load(fromByteOffset: x, as: UInt8.self))
                            : Int(line.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                        count += 1
                        x += step
                    }
                    y += step
                }
                means[row * columns + column] = count > 0 ? Float(total) / Float(count) * scale : 0
            }
        }
        return means
    }
}
