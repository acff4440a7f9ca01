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
    /// Tile `k` shows the frame `ContactSheetPlan` gives for `ContactSheetLayout.time(ofTile:)`:
    /// the keyframe nearest it (as storyboard tiles), or, where another tile is nearer that
    /// keyframe, the exact frame at its time. A keyframe whose picture is blank
    /// (`blankDeviation`) gives way to the first of the next `replacementsTried` keyframes that
    /// is not and that no tile shows, or stays if there is none. No frame is shown twice: an
    /// exact frame that is one already shown (tiles closer than a frame, in a film of a few
    /// frames) leaves its tile black. Each caption is the time of the frame shown, `HH:MM:SS`
    /// (whole seconds from the first frame). A tile whose frame cannot be read or decoded for good
    /// (a damaged file, one cut short) is the tile that says so (`unreadableTile`), captioned
    /// with the time it stands for; a read that fails in a way that may pass fails the sheet.
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
            let plan = ContactSheetPlan(times: (0..<layout.tileCount).map { session.pts(forSeconds: layout.time(ofTile: $0)) },
                                        index: index)
            var chosen = try keyframePictures(plan, session: session, index: index, width: width, height: height)
            var shown = Set(chosen.values.compactMap { $0?.shown })
            // After keyframes decoded alone: every frame decoded from here, from a seek.
            Self.release(session)
            for (k, source) in plan.sources.enumerated() {
                guard case .exact(let time) = source else { continue }
                guard let picture = try Self.exactPicture(at: time, in: session, width: width, height: height) else {
                    chosen[k] = .some(nil)
                    continue
                }
                if shown.insert(picture.shown).inserted { chosen[k] = picture }
            }
            for (k, picture) in chosen {
                let origin = layout.tileOrigin(k)
                canvas.draw(picture?.image ?? Self.unreadableTile(width: width, height: height), x: origin.x, y: origin.y)
                let label = ClockText.clock(seconds: picture.map { session.seconds(forPts: $0.shown) } ?? layout.time(ofTile: k))
                let labelWidth = BitmapFont.width(of: label, scale: scale)
                BitmapFont.draw(label, into: &canvas, x: origin.x + (width - labelWidth) / 2,
                                y: origin.y + height + (ContactSheetLayout.captionHeight - BitmapFont.glyphHeight * scale) / 2,
                                scale: scale, color: Self.textColor)
            }
        }
        return try ImageEncoder.encode(canvas, format: format, budget: layout.jpegBudget)
    }

    /// The pictures of the tiles `plan` shows keyframes in, by tile: the keyframe, or in place of
    /// a blank one the first of the next `replacementsTried` keyframes that is not blank and that
    /// no tile shows. A keyframe that could not be decoded counts as blank; a tile none of whose
    /// keyframes could be decoded has nil, to be marked.
    private func keyframePictures(_ plan: ContactSheetPlan, session: DecodeSession, index: KeyframeIndex,
                                  width: Int, height: Int) throws -> [Int: Picture?] {
        var decoded = try pictures(of: plan.keyframes, session: session, index: index, width: width, height: height)
        func decodedPicture(_ time: Int64) throws -> Picture? {
            if let kept = decoded[time] { return kept }
            let made = try Self.decode([time], in: session, index: index, width: width, height: height).pictures[time]
            decoded[time] = made
            return made
        }
        var used = Set(plan.keyframes)
        var chosen: [Int: Picture?] = [:]
        for (k, source) in plan.sources.enumerated() {
            guard case .keyframe(let first) = source else { continue }
            var picture = try decodedPicture(first)
            var candidate = first
            if (picture?.image.lumaDeviation ?? 0) < Self.blankDeviation {
                for _ in 0..<Self.replacementsTried {
                    guard let later = index.next(after: candidate) else { break }
                    candidate = later
                    guard !used.contains(later) else { continue }
                    if let replacement = try decodedPicture(later), replacement.image.lumaDeviation >= Self.blankDeviation {
                        used.insert(later)
                        picture = replacement
                        break
                    }
                }
            }
            chosen[k] = .some(picture)
        }
        return chosen
    }

    /// The frame a player shows at `time`, as a tile (`DecodeSession.exactFrame(at:)`: every
    /// frame decoded, with its loop filter, in a session `release(_:)` left so); nil when it
    /// cannot be read or decoded for good.
    /// - Throws: the `MediaError`s that may pass (`mayPass`: a read that failed, the time bound).
    static func exactPicture(at time: Int64, in session: DecodeSession, width: Int, height: Int) throws -> Picture? {
        do {
            let frame = try session.exactFrame(at: session.seconds(forPts: time))
            let image = try session.uprightTile(of: frame, width: width, height: height, scaler: TileScaler())
            return Picture(image: image, shown: frame.pts)
        } catch let failure as MediaError where !session.cause(of: failure).mayPass {
            session.needsSeek = true
            return nil
        } catch let failure as MediaError {
            throw session.cause(of: failure)
        }
    }
}
