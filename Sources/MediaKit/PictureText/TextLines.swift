/// The lines of text of an event's picture, each cut out on its own, as Tesseract reads a single
/// line best (page segmentation mode 7): rows without ink separate lines; a run of rows too short
/// to be a line (an accent or a dot set apart from its letters) joins the nearest line.
enum TextLines {
    /// A pixel darker than this is ink.
    static let inkLevel: UInt8 = 128
    /// A run of rows lower than this share of the tallest is part of a neighbouring line.
    static let partOfLine = 0.4

    /// The lines of `page`, top to bottom, each cropped to its ink; empty where there is none.
    static func lines(of page: GrayImage) -> [GrayImage] {
        var rows = [Int](repeating: 0, count: page.height)
        for y in 0..<page.height {
            for x in 0..<page.width where page[x, y] < inkLevel { rows[y] += 1 }
        }
        var runs: [Range<Int>] = []
        var start: Int?
        for y in 0...page.height {
            let inked = y < page.height && rows[y] > 0
            if inked, start == nil { start = y }
            if !inked, let first = start { runs.append(first..<y); start = nil }
        }
        guard let tallest = runs.map(\.count).max() else { return [] }
        var merged = runs.filter { Double($0.count) >= partOfLine * Double(tallest) }
        for run in runs where Double(run.count) < partOfLine * Double(tallest) {
            guard let nearest = merged.indices.min(by: { gap(run, merged[$0]) < gap(run, merged[$1]) }) else { continue }
            let line = merged[nearest]
            merged[nearest] = min(line.lowerBound, run.lowerBound)..<max(line.upperBound, run.upperBound)
        }
        return merged.sorted { $0.lowerBound < $1.lowerBound }.compactMap { band in
            var left = page.width, right = -1
            for y in band {
                for x in 0..<page.width where page[x, y] < inkLevel {
                    left = min(left, x)
                    right = max(right, x)
                }
            }
            guard right >= left else { return nil }
            return page.cropped(x: left, y: band.lowerBound, width: right - left + 1, height: band.count)
        }
    }

    /// Rows between two runs.
    private static func gap(_ a: Range<Int>, _ b: Range<Int>) -> Int {
        a.upperBound <= b.lowerBound ? b.lowerBound - a.upperBound : a.lowerBound - b.upperBound
    }
}
