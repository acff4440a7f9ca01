/// Reads the text of subtitle pictures: each picture's letters separated from their outline and
/// box (`InkSeparation`), cut into lines (`TextLines`), each line scaled to the height Tesseract's
/// models read best, measured for slant (`Slant`: an italic line is stood upright before it is
/// read, and marked italic), padded with paper, and read as a single line.
final class PictureReader {
    /// One line as shown: its text and whether it slants.
    struct Line: Equatable {
        var text: String
        var isItalic: Bool
    }

    /// The height, in pixels, a line's ink (ascenders to descenders) is scaled to.
    static let lineHeight = 36.0
    /// Paper around a line: Tesseract finds no text touching the picture's edge.
    static let margin = 12

    private let tesseract: TesseractReader
    /// The heights of the track's last lines: a line of small letters only ("non", "ou") is
    /// scaled as its neighbours are, not blown up to a full line's height.
    private var recentHeights: [Int] = []

    /// - Throws: `MediaError.unsupported` where Tesseract cannot load `language`'s data.
    init(language: String) throws {
        tesseract = try TesseractReader(language: language)
    }

    /// The lines of `picture`, top to bottom; those where nothing was read are left out.
    func read(_ picture: SubtitlePicture) -> [Line] {
        TextLines.lines(of: InkSeparation.ink(of: picture)).compactMap { band in
            let scaled = band.scaled(by: Self.lineHeight / Double(lineHeight(band.height)))
            let slope = Slant.slope(of: scaled)
            let isItalic = slope >= Slant.italicSlope
            let upright = isItalic ? scaled.upright(slope: slope) : scaled
            let text = ReadingFixes.fixed(tesseract.read(upright.padded(by: Self.margin)))
            return text.isEmpty ? nil : Line(text: text, isItalic: isItalic)
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
