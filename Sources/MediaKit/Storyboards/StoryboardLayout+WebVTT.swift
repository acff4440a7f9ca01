extension StoryboardLayout {
    /// The storyboard as WebVTT, the thumbnail track web players read (Video.js, Plyr,
    /// Bitmovin, Jellyfin's web client): `WEBVTT`, a blank line, then one cue per tile in time
    /// order, its timing `HH:MM:SS.mmm --> HH:MM:SS.mmm` (the tile's interval: each cue ends
    /// where the next begins, the last at the duration) and its payload the sheet's name with a
    /// media fragment of the tile's rectangle, `0001.jpg#xywh=x,y,w,h`, each cue followed by a
    /// blank line. Names are relative to the VTT, so the folder works wherever it is served from.
    /// Pure text: LF line ends, UTF-8, no I/O.
    /// - Parameter name: the file name of a sheet (0-based), `sheetName(_:)` by default.
    public func webVTT(sheetName name: ((Int) -> String)? = nil) -> String {
        let name = name ?? sheetName
        var text = "WEBVTT\n\n"
        text.reserveCapacity(16 + tileCount * 64)
        for index in 0..<tileCount {
            let t = tile(index)
            text += "\(TimeText.cue(milliseconds: t.startMilliseconds)) --> \(TimeText.cue(milliseconds: t.endMilliseconds))\n"
            text += "\(name(t.sheet))#xywh=\(t.x),\(t.y),\(t.width),\(t.height)\n\n"
        }
        return text
    }
}
