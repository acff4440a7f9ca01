/// One contact sheet of a video: a header of text lines, then a grid of `columns` × `rows`
/// frames spread over the film, each labelled with its time (`ContactSheetLayout`). Plain
/// values, so it can cross a process boundary; the tree makes it from the probe
/// (`init?(info:fileName:…)`), so the sheet's pixel size, and so its byte count in either format,
/// is known without decoding.
public struct ContactSheetRequest: Codable, Sendable, Hashable {
    /// The container index of the video stream the frames come from.
    public var streamIndex: Int
    /// Seconds the frames are spread over, from the stream's first frame (the file's duration).
    public var duration: Double
    public var columns: Int
    public var rows: Int
    /// The sheet's width in pixels (vcsi's default, 1500).
    public var width: Int
    /// The size of every frame's picture, upright.
    public var tileWidth: Int
    public var tileHeight: Int
    /// The header's lines, as written (`ContactSheetHeader.lines(info:fileName:)`); drawn in
    /// ASCII, cut to the sheet's width (`BitmapFont`).
    public var header: [String]
    /// What the probe tells of the video, for the sheet's JPEG budget (`JPEGBudget`).
    public var source: PictureSource

    public init(streamIndex: Int, duration: Double, columns: Int = 4, rows: Int = 4, width: Int = 1500,
                tileWidth: Int, tileHeight: Int, header: [String], source: PictureSource = .unknown) {
        self.streamIndex = streamIndex
        self.duration = duration
        self.columns = columns
        self.rows = rows
        self.width = width
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.header = header
        self.source = source
    }

    /// The contact sheet of the file `info` describes, named `fileName` (the source file's own
    /// name, shown in the header): its first moving-picture stream over the container's duration
    /// (else the stream's), tiles as wide as `width` leaves for `columns` of them
    /// (`ContactSheetLayout.tileWidth(sheetWidth:columns:)`) and as high as the display aspect
    /// makes them (`StoryboardRequest.tileSize`), and the header `ContactSheetHeader` writes.
    ///
    /// Nil when the file has no moving video, no positive duration, or the settings give no
    /// valid layout (tiles narrower than 16 pixels, a sheet past `ImageEncoder.maximumSide`).
    public init?(info: MediaInfo, fileName: String, columns: Int = 4, rows: Int = 4, width: Int = 1500) {
        guard let blank = ContactSheetRequest(blankHeaderOf: info, columns: columns, rows: rows, width: width) else { return nil }
        self = blank.withHeader(of: info, fileName: fileName)
    }

    /// The same sheet with its header's lines left blank: as high, and as many bytes, as the sheet
    /// with its header (always `ContactSheetHeader.lineCount` lines), without writing its text. What
    /// a listing needs; `withHeader` gives the sheet to make.
    public init?(blankHeaderOf info: MediaInfo, columns: Int = 4, rows: Int = 4, width: Int = 1500) {
        guard let stream = info.streams.first(where: \.isMovingVideo),
              let duration = info.container.duration ?? stream.duration, duration > 0, duration.isFinite,
              columns >= 1, rows >= 1,
              let tile = StoryboardRequest.tileSize(of: stream,
                                                     width: ContactSheetLayout.tileWidth(sheetWidth: width, columns: columns))
        else { return nil }
        self.init(streamIndex: stream.index, duration: duration, columns: columns, rows: rows, width: width,
                  tileWidth: tile.width, tileHeight: tile.height,
                  header: Array(repeating: "", count: ContactSheetHeader.lineCount),
                  source: info.pictureSource(of: stream))
        guard ContactSheetLayout(self) != nil else { return nil }
    }

    /// This sheet with the header `ContactSheetHeader` writes for the file `info` describes (the
    /// one it was made from), named `fileName`.
    public func withHeader(of info: MediaInfo, fileName: String) -> ContactSheetRequest {
        var request = self
        if let stream = info.streams.first(where: { $0.index == streamIndex }) {
            request.header = ContactSheetHeader.lines(info: info, stream: stream, fileName: fileName)
        }
        return request
    }
}
