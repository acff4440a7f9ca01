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
            text += "\(ClockText.cue(milliseconds: t.startMilliseconds)) --> \(ClockText.cue(milliseconds: t.endMilliseconds))\n"
            text += "\(name(t.sheet))#xywh=\(t.x),\(t.y),\(t.width),\(t.height)\n\n"
        }
        return text
    }
}

extension StoryboardLayout {
    /// The length in bytes of `webVTT(sheetName:)`'s text, UTF-8, worked out without writing it
    /// (integer arithmetic over the cues): what `stat` of the VTT needs, cheap enough for every
    /// film of a large library.
    public func webVTTSize(sheetName name: ((Int) -> String)? = nil) -> Int {
        let name = name ?? sheetName
        let names = (0..<sheetCount).map { name($0).utf8.count }
        func cueLength(_ milliseconds: Int) -> Int { max(2, Self.digits(milliseconds / 3_600_000)) + 10 }
        var size = 8  // "WEBVTT\n\n"
        for index in 0..<tileCount {
            let t = tile(index)
            size += cueLength(t.startMilliseconds) + 5 + cueLength(t.endMilliseconds) + 1
            size += names[t.sheet] + 6 + Self.digits(t.x) + Self.digits(t.y) + Self.digits(t.width) + Self.digits(t.height) + 3 + 2
        }
        return size
    }

    /// How many decimal digits `value` (≥ 0) is written with.
    static func digits(_ value: Int) -> Int {
        var count = 1, rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }
}
