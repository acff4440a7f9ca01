/// One storyboard of a video stream: a frame every `interval` seconds over `duration`, laid out
/// in sheets of `columns` × `rows` tiles of `tileWidth` × `tileHeight` pixels
/// (`StoryboardLayout`). Plain values, so it can cross a process boundary; the tree makes it
/// from the probe (`init?(info:…)`), so the layout, every sheet's pixel size and so every
/// sheet's byte count are known without decoding.
public struct StoryboardRequest: Codable, Sendable, Hashable {
    /// The container index of the video stream the frames come from.
    public var streamIndex: Int
    /// Seconds the storyboard covers, from the stream's first frame (the file's duration).
    public var duration: Double
    /// Seconds from one frame to the next (Jellyfin's default, 10); kept to the millisecond.
    public var interval: Double
    public var columns: Int
    public var rows: Int
    /// The size of every tile, in pixels, upright (after the display matrix's turn).
    public var tileWidth: Int
    public var tileHeight: Int
    /// The format the sheets are written in: JPEG (what players read) unless asked otherwise.
    public var format: ImageFormat
    /// What the probe tells of the video, for the sheets' JPEG budgets (`JPEGBudget`).
    public var source: PictureSource

    public init(streamIndex: Int, duration: Double, interval: Double = 10, columns: Int = 10, rows: Int = 10,
                tileWidth: Int, tileHeight: Int, format: ImageFormat = .jpeg, source: PictureSource = .unknown) {
        self.streamIndex = streamIndex
        self.duration = duration
        self.interval = interval
        self.columns = columns
        self.rows = rows
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.format = format
        self.source = source
    }

    /// The storyboard of the file `info` describes: its first moving-picture stream
    /// (`MediaInfo.Stream.isMovingVideo`), over the container's duration (else the stream's), with
    /// tiles `tileWidth` wide and as high as the display aspect makes them (`tileSize`).
    ///
    /// Nil when the file has no moving video, no positive duration, or the settings give no
    /// valid layout (`StoryboardLayout.init?(_:)`: a sheet wider or higher than
    /// `ImageEncoder.maximumSide`, say).
    public init?(info: MediaInfo, interval: Double = 10, columns: Int = 10, rows: Int = 10, tileWidth: Int = 320,
                 format: ImageFormat = .jpeg) {
        guard let stream = info.streams.first(where: \.isMovingVideo),
              let duration = info.container.duration ?? stream.duration, duration > 0,
              let tile = Self.tileSize(of: stream, width: tileWidth) else { return nil }
        self.init(streamIndex: stream.index, duration: duration, interval: interval, columns: columns, rows: rows,
                  tileWidth: tile.width, tileHeight: tile.height, format: format, source: info.pictureSource(of: stream))
        guard StoryboardLayout(self) != nil else { return nil }
    }

    /// The size of a tile `width` pixels wide of `stream`: exactly that wide (enlarged if the
    /// picture is narrower, as players' scrubbing bars show every film at one width), and as high
    /// as the display aspect makes it (`ThumbnailGeometry.displaySize`: sample aspect ratio and
    /// rotation applied), rounded to the nearest even number, at least 2 (as the ffmpeg
    /// command's `scale=320:-2`). Nil for a stream without a size or a width below 1.
    public static func tileSize(of stream: MediaInfo.Stream, width: Int) -> ThumbnailGeometry.Size? {
        guard width >= 1, let display = ThumbnailGeometry.displaySize(of: stream) else { return nil }
        let height = 2 * ThumbnailGeometry.divideRounded(display.height * width, 2 * display.width)
        return ThumbnailGeometry.Size(width: width, height: max(2, height))
    }
}
