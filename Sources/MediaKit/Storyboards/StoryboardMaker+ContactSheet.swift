/// Contact sheets: a header and a grid of labelled frames spread over the film.
extension StoryboardMaker {
    /// A picture whose luma deviates less than this from its mean (`RGBImage.lumaDeviation`) is
    /// taken as blank: a black frame, a fade, a title card of one colour.
    static let blankDeviation = 6.0
    /// How many following keyframes are tried in place of a blank one.
    static let replacementsTried = 8
    static let textColor: (UInt8, UInt8, UInt8) = (235, 235, 235)

    /// The contact sheet `request` describes, in `format`, exactly
    /// `ContactSheetLayout.encodedSize(format:)` bytes.
    ///
    /// Tile `k` shows the keyframe nearest `ContactSheetLayout.time(ofTile:)` (as storyboard
    /// tiles), unless that picture is blank (`blankDeviation`): then the first of the next
    /// `replacementsTried` keyframes that is not, or the first picture if all are. Its caption
    /// is the time of the frame shown, `HH:MM:SS` (whole seconds from the first frame).
    /// - Throws: `MediaError` (see `MediaService.contactSheet(of:request:format:)`).
    func contactSheet(of file: MediaFile, request: ContactSheetRequest, format: ImageFormat) throws -> [UInt8] {
        guard let layout = ContactSheetLayout(request) else {
            throw MediaError.imageFailed(reason: "no contact sheet layout for \(request)")
        }
        var canvas = RGBImage(width: request.width, height: layout.height, color: (0, 0, 0))
        let margin = ContactSheetLayout.margin, scale = ContactSheetLayout.textScale
        for (i, line) in request.header.enumerated() {
            BitmapFont.draw(BitmapFont.fitted(line, limit: layout.charactersPerLine), into: &canvas,
                            x: margin, y: margin + i * ContactSheetLayout.lineHeight, scale: scale, color: Self.textColor)
        }
        let (width, height) = (request.tileWidth, request.tileHeight)
        try withSession(file, streamIndex: request.streamIndex, frames: layout.tileCount * (1 + Self.replacementsTried)) { session, index in
            let nearest = (0..<layout.tileCount).map { index.nearest(to: session.pts(forSeconds: layout.time(ofTile: $0))) }
            var decoded = try pictures(of: Array(Set(nearest.compactMap { $0 })).sorted(), session: session, index: index,
                                       width: width, height: height)
            func picture(_ time: Int64) throws -> Picture? {
                if let kept = decoded[time] { return kept }
                let made = try Self.decode([time], in: session, index: index, width: width, height: height).pictures[time]
                decoded[time] = made
                return made
            }
            for k in 0..<layout.tileCount {
                // A keyframe that could not be decoded counts as blank; a tile none of whose
                // keyframes could be decoded stays black.
                guard let first = nearest[k] else { continue }
                var chosen = try picture(first)
                var candidate = first
                if (chosen?.image.lumaDeviation ?? 0) < Self.blankDeviation {
                    for _ in 0..<Self.replacementsTried {
                        guard let later = index.next(after: candidate) else { break }
                        candidate = later
                        if let replacement = try picture(later), replacement.image.lumaDeviation >= Self.blankDeviation {
                            chosen = replacement
                            break
                        }
                    }
                }
                guard let chosen else { continue }
                let origin = layout.tileOrigin(k)
                canvas.draw(chosen.image, x: origin.x, y: origin.y)
                let label = TimeText.clock(seconds: session.seconds(forPts: chosen.shown))
                let labelWidth = BitmapFont.width(of: label, scale: scale)
                BitmapFont.draw(label, into: &canvas, x: origin.x + (width - labelWidth) / 2,
                                y: origin.y + height + (ContactSheetLayout.captionHeight - BitmapFont.glyphHeight * scale) / 2,
                                scale: scale, color: Self.textColor)
            }
        }
        return try ImageEncoder.encode(canvas, format: format, budget: layout.jpegBudget)
    }
}
