/// How far a line's letters lean, from the picture alone: sheared by the right slope, the
/// vertical strokes of upright letters line up into narrow columns of ink, and the column
/// counts' sum of squares is at its highest. Italic faces lean 10–20°; upright ones measure near 0.
enum Slant {
    /// The slopes tried (pixels across per pixel up), from a little left to about 24° right.
    static let candidates: [Double] = stride(from: -0.1, through: 0.45, by: 0.025).map { $0 }
    /// From this slope (about 7°) a line is italic.
    static let italicSlope = 0.12

    /// The slope at which `line`'s strokes stand most upright.
    static func slope(of line: GrayImage) -> Double {
        var ink: [(x: Int, rise: Int)] = []
        for y in 0..<line.height {
            for x in 0..<line.width where line[x, y] < TextLines.inkLevel { ink.append((x, line.height - 1 - y)) }
        }
        guard !ink.isEmpty else { return 0 }
        let margin = Int((0.45 * Double(line.height)).rounded(.up)) + 1
        var columns = [Int](repeating: 0, count: line.width + 2 * margin)
        var best = (slope: 0.0, score: -1)
        for slope in candidates {
            for index in columns.indices { columns[index] = 0 }
            for point in ink {
                columns[point.x + margin - Int((slope * Double(point.rise)).rounded())] += 1
            }
            let score = columns.reduce(0) { $0 + $1 * $1 }
            // Ties keep the slope nearer upright.
            if score > best.score || (score == best.score && abs(slope) < abs(best.slope)) { best = (slope, score) }
        }
        return best.slope
    }
}
