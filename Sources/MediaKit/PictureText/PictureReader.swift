import Dispatch

/// Reads the text of subtitle pictures: each picture's letters separated from their outline and
/// box (`InkSeparation`), cut into lines (`TextLines`), each line scaled to the height Tesseract's
/// models read best, measured for slant (`Slant`: an italic line is stood upright before it is
/// read, and marked italic), padded with paper, and read as a single line.
///
/// Preparing is done in the order of the track, on the caller's thread (a line's scale follows
/// the lines before it); reading, nearly all the time, on `lanes` threads at once, each with a
/// Tesseract of its own. What is read does not depend on the number of lanes.
final class PictureReader {
    /// One line as shown: its text and whether it slants.
    struct Line: Equatable {
        var text: String
        var isItalic: Bool
    }

    /// One line as Tesseract is given it.
    struct PreparedLine {
        var image: GrayImage
        var isItalic: Bool
    }

    /// The height, in pixels, a line's ink (ascenders to descenders) is scaled to: the size at
    /// which Tesseract's models misread fewest characters of the test tracks (PERFORMANCE.md).
    static let lineHeight = 36.0
    /// Paper around a line: Tesseract finds no text touching the picture's edge.
    static let margin = 12

    /// One Tesseract per lane.
    private let readers: [TesseractReader]
    /// The heights of the track's last lines: a line of small letters only ("non", "ou") is
    /// scaled as its neighbours are, not blown up to a full line's height.
    private var recentHeights: [Int] = []

    var lanes: Int { readers.count }

    /// - Throws: `MediaError.unsupported` where Tesseract cannot load `language`'s data.
    init(language: String, lanes: Int) throws {
        readers = try (0..<max(1, lanes)).map { _ in try TesseractReader(language: language) }
    }

    /// The lines of `picture`, top to bottom, ready to be read.
    func prepare(_ picture: SubtitlePicture) -> [PreparedLine] {
        TextLines.lines(of: InkSeparation.ink(of: picture)).map { band in
            let scaled = band.scaled(by: Self.lineHeight / Double(lineHeight(band.height)))
            let slope = Slant.slope(of: scaled)
            let isItalic = slope >= Slant.italicSlope
            let upright = isItalic ? scaled.upright(slope: slope) : scaled
            return PreparedLine(image: upright.padded(by: Self.margin), isItalic: isItalic)
        }
    }

    /// The text of each picture's lines, in order; a line where nothing was read is left out.
    func read(_ pictures: [[PreparedLine]]) -> [[Line]] {
        let lines = pictures.flatMap { $0 }
        var texts = [String](repeating: "", count: lines.count)
        texts.withUnsafeMutableBufferPointer { out in
            let out = UnsafeSendable(out)
            let lines = UnsafeSendable(lines)
            let readers = UnsafeSendable(readers)
            DispatchQueue.concurrentPerform(iterations: min(readers.value.count, max(1, lines.value.count))) { lane in
                for index in stride(from: lane, to: lines.value.count, by: readers.value.count) {
                    out.value[index] = ReadingFixes.fixed(readers.value[lane].read(lines.value[index].image))
                }
            }
        }
        var next = 0
        return pictures.map { picture in
            picture.compactMap { line in
                defer { next += 1 }
                return texts[next].isEmpty ? nil : Line(text: texts[next], isItalic: line.isItalic)
            }
        }
    }

    /// The height a line of `height` pixels is taken to have: its own, or most of the track's
    /// usual one where it is lower (the usual one being the median of the last 31 lines').
    private func lineHeight(_ height: Int) -> Int {
        recentHeights.append(height)
        if recentHeights.count > 31 { recentHeights.removeFirst() }
        let usual = recentHeights.sorted()[recentHeights.count / 2]
        return max(height, usual * 3 / 4)
    }
}

/// A value handed to `concurrentPerform`'s lanes, each touching only its own part of it.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
