/// How a thumbnail's frame is chosen (AVAssetImageGenerator's tolerances, as two modes).
public enum FramePick: String, Codable, Sendable, Hashable {
    /// Frame-accurate (`at-`): the frame a player shows at the time, the last frame whose
    /// presentation time is at or before it (the first frame for a time before it).
    case exact
    /// The keyframe nearest the time, before or after it (`near-`): fast, for browsing.
    case nearestKeyframe
}

/// The box a thumbnail is fitted into, aspect kept, never enlarged.
public enum ThumbnailBox: Codable, Sendable, Hashable {
    /// At most this many pixels wide (`@320w`).
    case width(Int)
    /// At most this many pixels high (`@180h`).
    case height(Int)
    /// Within this width and height (`@640x360`).
    case box(width: Int, height: Int)
    /// The display size itself (`@full`).
    case full
}

/// One frame to make into a picture file. Plain values, so it can cross a process boundary.
public struct ThumbnailRequest: Codable, Sendable, Hashable {
    /// The container index of the video stream to take the frame from.
    public var streamIndex: Int
    /// Seconds from the video stream's first frame (0 is that frame, whatever the container's or
    /// the stream's start time: an MPEG stream starting at 0.54 s shows its first frame at 0).
    public var time: Double
    public var pick: FramePick
    /// The output size in pixels, from `ThumbnailGeometry.outputSize`, after rotation.
    public var width: Int
    public var height: Int
    /// The file format to write: the file is exactly `encodedSize` bytes.
    public var format: ImageFormat
    /// What the probe tells of the video, for a JPEG's budget (`MediaInfo.pictureSource(of:)`).
    public var source: PictureSource

    /// A request for a `format` file (PNG unless asked otherwise) of a video `source`.
    public init(streamIndex: Int, time: Double, pick: FramePick, width: Int, height: Int, format: ImageFormat = .png,
                source: PictureSource = .unknown) {
        self.streamIndex = streamIndex
        self.time = time
        self.pick = pick
        self.width = width
        self.height = height
        self.format = format
        self.source = source
    }

    /// The budget of the JPEG: its size and its source.
    public var jpegBudget: JPEGBudget { JPEGBudget(width: width, height: height, source: source) }

    /// The exact length of the file, whatever the frame: `ImageEncoder.encodedSize(format:budget:)`.
    public var encodedSize: Int { ImageEncoder.encodedSize(format: format, budget: jpegBudget) }
}

/// A made thumbnail: the picture file and what frame it shows.
public struct Thumbnail: Codable, Sendable, Equatable {
    /// The file's bytes, in `format`: exactly the request's `encodedSize` long.
    public var bytes: [UInt8]
    /// The format of `bytes` (the request's).
    public var format: ImageFormat
    /// The presentation time of the frame shown, in seconds from the stream's first frame (as
    /// `ThumbnailRequest.time`), to the microsecond.
    public var frameTime: Double
    /// Whether the frame shown is a keyframe.
    public var isKeyframe: Bool
    /// The picture's mean luma, 0 (black) to 255 (white) (`RGBImage.meanLuma`): lets a caller
    /// tell a black frame (a fade-in) from a picture.
    public var meanLuma: Double
    /// For a JPEG, the libjpeg quality (1–100) its budget allowed (`JPEGEncoder.Encoded.quality`);
    /// nil for a PNG, or a JPEG written as the mosaic fallback.
    public var jpegQuality: Int?

    public init(bytes: [UInt8], format: ImageFormat, frameTime: Double, isKeyframe: Bool, meanLuma: Double = 0,
                jpegQuality: Int? = nil) {
        self.bytes = bytes
        self.format = format
        self.frameTime = frameTime
        self.isKeyframe = isKeyframe
        self.meanLuma = meanLuma
        self.jpegQuality = jpegQuality
    }
}
