/// The server layout's pictures: Jellyfin's trickplay sheets and a BIF's frames, made of the
/// same keyframes as the storyboard's tiles.
extension StoryboardMaker {
    /// Sheet `sheet` of `layout`: its tiles drawn where the storyboard draws them, on the full
    /// grid (black after the last tile), as a JPEG of exactly `layout.sheetByteCount(sheet:)` bytes. A
    /// sheet but the last is the same picture as the storyboard's sheet of the same request.
    /// - Throws: `MediaError` (as `sheet(of:request:sheet:)`); `.imageFailed` for no such sheet.
    func trickplaySheet(of file: MediaFile, layout: TrickplayLayout, sheet: Int) throws -> [UInt8] {
        guard (0..<layout.sheetCount).contains(sheet) else {
            throw MediaError.imageFailed(reason: "no trickplay sheet \(sheet) of \(layout.sheetCount)")
        }
        var canvas = RGBImage(width: layout.sheetSize.width, height: layout.sheetSize.height, color: (0, 0, 0))
        for (tile, picture) in try tilePictures(for: layout.tiles(inSheet: sheet).map { layout.tile($0) }, of: file, request: layout.request) {
            canvas.draw(picture, x: tile.x, y: tile.y)
        }
        return try ImageEncoder.encode(canvas, format: .jpeg, budget: layout.jpegBudget(sheet: sheet))
    }

    /// Tiles `frames` of `storyboard`, each alone as a JPEG of the tile's size (exactly
    /// `storyboard.frameBudget.bytes`): a BIF's images (`BIFLayout(frames:)`). A tile whose
    /// keyframe cannot be read or decoded for good is the tile that says so, as on a sheet.
    /// - Throws: `MediaError` (as `sheet(of:request:sheet:)`); `.imageFailed` for frames out of range.
    func frames(of file: MediaFile, storyboard: StoryboardLayout, frames: Range<Int>) throws -> [[UInt8]] {
        guard frames.lowerBound >= 0, frames.upperBound <= storyboard.tileCount else {
            throw MediaError.imageFailed(reason: "no frames \(frames) of \(storyboard.tileCount)")
        }
        return try tilePictures(for: frames.map(storyboard.tile), of: file, request: storyboard.request).map { _, picture in
            try ImageEncoder.encode(picture, format: .jpeg, budget: storyboard.frameBudget)
        }
    }
}
