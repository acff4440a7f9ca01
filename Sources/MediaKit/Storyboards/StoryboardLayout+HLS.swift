extension StoryboardLayout {
    /// The storyboard as an HLS image media playlist (Roku's and the Disney/WarnerMedia "Image
    /// Media Playlist" extension of HLS, which Roku and Jellyfin read for trick play):
    ///
    ///     #EXTM3U
    ///     #EXT-X-TARGETDURATION:1000
    ///     #EXT-X-VERSION:7
    ///     #EXT-X-MEDIA-SEQUENCE:1
    ///     #EXT-X-PLAYLIST-TYPE:VOD
    ///     #EXT-X-IMAGES-ONLY
    ///     #EXTINF:1000.000,
    ///     #EXT-X-TILES:RESOLUTION=320x180,LAYOUT=10x10,DURATION=10.000
    ///     0001.jpg
    ///     …
    ///     #EXT-X-ENDLIST
    ///
    /// One segment per sheet: `EXTINF` is the time the sheet covers (the last one ends at the
    /// duration), `RESOLUTION` a tile's size, `LAYOUT` the sheet's grid as columns × rows (the last
    /// sheet's own, `sheetGrid`), `DURATION` the time each tile covers; `EXT-X-TARGETDURATION` is
    /// the longest `EXTINF` rounded up to whole seconds. Names are relative to the playlist. Pure
    /// text: LF line ends, no I/O.
    /// - Parameter name: the file name of a sheet (0-based), `sheetName(_:)` by default.
    public func hlsPlaylist(sheetName name: ((Int) -> String)? = nil) -> String {
        let name = name ?? sheetName
        let longest = (0..<sheetCount).map { sheetSpan($0).end - sheetSpan($0).start }.max() ?? 0
        var text = "#EXTM3U\n"
        text += "#EXT-X-TARGETDURATION:\((longest + 999) / 1000)\n"
        text += "#EXT-X-VERSION:7\n"
        text += "#EXT-X-MEDIA-SEQUENCE:1\n"
        text += "#EXT-X-PLAYLIST-TYPE:VOD\n"
        text += "#EXT-X-IMAGES-ONLY\n"
        let tile = "RESOLUTION=\(request.tileWidth)x\(request.tileHeight)"
        let each = "DURATION=\(ClockText.seconds(milliseconds: intervalMilliseconds))"
        for sheet in 0..<sheetCount {
            let span = sheetSpan(sheet)
            let grid = sheetGrid(sheet)
            text += "#EXTINF:\(ClockText.seconds(milliseconds: span.end - span.start)),\n"
            text += "#EXT-X-TILES:\(tile),LAYOUT=\(grid.columns)x\(grid.rows),\(each)\n"
            text += "\(name(sheet))\n"
        }
        text += "#EXT-X-ENDLIST\n"
        return text
    }
}
