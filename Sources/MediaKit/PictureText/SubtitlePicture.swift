import CAV

/// The picture of one picture subtitle event as it is shown: its rectangles (a PGS display set's
/// objects, a DVD subpicture) laid on one canvas, each pixel's opacity and lightness resolved
/// from its palette entry. Whether the event is forced travels with it.
struct SubtitlePicture {
    let width: Int
    let height: Int
    /// Opacity per pixel, 0 (transparent) to 255, row by row.
    var alpha: [UInt8]
    /// Lightness per pixel (BT.601 luma of the palette's RGB), 0 to 255, row by row.
    var luma: [UInt8]
    /// Every rectangle is marked forced (PGS's forced-on flag, DVD's forced start).
    let isForced: Bool

    /// The picture of `subtitle`'s bitmap rectangles; nil where it has none with pixels.
    init?(_ subtitle: Subtitle) {
        let rects = (0..<Int(subtitle.value.num_rects)).compactMap { index -> AVSubtitleRect? in
            guard let rect = subtitle.value.rects[index]?.pointee, rect.type == SUBTITLE_BITMAP,
                  rect.w > 0, rect.h > 0, rect.data.0 != nil, rect.data.1 != nil else { return nil }
            return rect
        }
        guard !rects.isEmpty else { return nil }
        let left = rects.map { Int($0.x) }.min()!, top = rects.map { Int($0.y) }.min()!
        let right = rects.map { Int($0.x + $0.w) }.max()!, bottom = rects.map { Int($0.y + $0.h) }.max()!
        width = right - left
        height = bottom - top
        alpha = [UInt8](repeating: 0, count: width * height)
        luma = [UInt8](repeating: 0, count: width * height)
        isForced = rects.allSatisfy { $0.flags & Int32(AV_SUBTITLE_FLAG_FORCED) != 0 }
        for rect in rects { draw(rect, left: left, top: top) }
    }

    /// Copies one rectangle onto the canvas, its palette indexes resolved. libavcodec's palettes
    /// are 32-bit ARGB words.
    private mutating func draw(_ rect: AVSubtitleRect, left: Int, top: Int) {
        let colors = max(0, min(256, Int(rect.nb_colors)))
        var entryAlpha = [UInt8](repeating: 0, count: 256)
        var entryLuma = [UInt8](repeating: 0, count: 256)
        rect.data.1!.withMemoryRebound(to: UInt32.self, capacity: colors) { palette in
            for index in 0..<colors {
                let argb = palette[index]
                let red = Int((argb >> 16) & 0xFF), green = Int((argb >> 8) & 0xFF), blue = Int(argb & 0xFF)
                entryAlpha[index] = UInt8(argb >> 24)
                entryLuma[index] = UInt8((299 * red + 587 * green + 114 * blue + 500) / 1000)
            }
        }
        let indexes = rect.data.0!
        let stride = Int(rect.linesize.0)
        let originX = Int(rect.x) - left, originY = Int(rect.y) - top
        for row in 0..<Int(rect.h) {
            let line = (originY + row) * width + originX
            for column in 0..<Int(rect.w) {
                let index = Int(indexes[row * stride + column])
                // Where objects overlap, the later one is drawn over the earlier, as a player does.
                guard entryAlpha[index] > 0 else { continue }
                alpha[line + column] = entryAlpha[index]
                luma[line + column] = entryLuma[index]
            }
        }
    }
}
