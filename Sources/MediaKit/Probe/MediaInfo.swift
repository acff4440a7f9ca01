/// What a probe learns about a media file: the container, every stream, the chapters and the tags.
///
/// Plain values only, so that it can be stored, compared, and sent across a process boundary.
/// Times are in seconds. Field names follow ffprobe's where ffprobe has one.
public struct MediaInfo: Codable, Sendable, Equatable {
    public var container: Container
    public var streams: [Stream]
    public var chapters: [Chapter]
    /// The container's metadata (title, artist, comment, …), keys as stored.
    public var tags: [String: String]

    public struct Container: Codable, Sendable, Equatable {
        /// libavformat's short name(s) of the demuxer, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
        public var format: String
        public var formatLongName: String?
        /// Seconds; nil where the container does not say.
        public var duration: Double?
        public var startTime: Double?
        /// Bits per second over the whole file.
        public var bitRate: Int64?
        /// Bytes of the source file.
        public var size: Int64
    }

    public enum Kind: String, Codable, Sendable {
        case video, audio, subtitle, data, attachment, unknown
    }

    public struct Stream: Codable, Sendable, Equatable {
        /// The stream's index in the container (ffprobe's `index`).
        public var index: Int
        public var kind: Kind
        public var codec: String?
        public var codecLongName: String?
        public var profile: String?
        public var width: Int?
        public var height: Int?
        /// e.g. `64:45`; only where it is not square (1:1).
        public var sampleAspectRatio: String?
        public var displayAspectRatio: String?
        public var pixelFormat: String?
        /// Degrees counter-clockwise from the display matrix (as ffprobe's `rotation`), where there is one.
        public var rotation: Double?
        /// ffprobe's names for how the values stand for light, nil where the stream does not say:
        /// `tv` or `pc`; a matrix such as `bt709` or `bt2020nc`; a transfer such as `bt709`,
        /// `smpte2084` (PQ) or `arib-std-b67` (HLG); primaries such as `bt709` or `bt2020`.
        public var colorRange: String?
        public var colorSpace: String?
        public var colorTransfer: String?
        public var colorPrimaries: String?
        /// High dynamic range: `PQ`, `HLG`, or `Dolby Vision` (which wins where the stream has a
        /// Dolby Vision configuration record). Nil for SDR.
        public var hdr: HDR?
        /// The Dolby Vision configuration record, where the stream has one.
        public var dolbyVision: DolbyVision?
        /// The stream's real base frame rate as a fraction, e.g. `24000/1001`.
        public var frameRate: String?
        public var averageFrameRate: String?
        public var sampleRate: Int?
        public var channels: Int?
        public var channelLayout: String?
        public var bitRate: Int64?
        public var startTime: Double?
        public var duration: Double?
        public var frameCount: Int64?
        public var language: String?
        public var title: String?
        /// The disposition flags that are set, by libavformat's names: default, forced, hearing_impaired, attached_pic, …
        public var disposition: [String]
        public var tags: [String: String]
        /// For an attached picture (cover art): the length of its stored bytes (the `attached_pic`
        /// packet), so that a cover served as stored has its size from the probe, without a read.
        public var attachedPictureSize: Int?

        /// A picture attached to the file (cover art), not a video track.
        public var isAttachedPicture: Bool { disposition.contains("attached_pic") }
        /// A QuickTime chapter image track (`timed_thumbnails`): the chapters' pictures, shown in
        /// chapters/, never a video to take frames from or a track.
        public var isChapterImageTrack: Bool { disposition.contains("timed_thumbnails") }
        /// A moving-picture stream: video that is neither cover art nor a chapter image track.
        public var isMovingVideo: Bool { kind == .video && !isAttachedPicture && !isChapterImageTrack }
        /// Dolby Vision without a base layer that players (and libavcodec) show without it
        /// (profile 5): its pictures cannot be shown right, only approximated (Docs/LAYOUT.md).
        public var isDolbyVisionOnly: Bool { dolbyVision?.compatibleBaseLayer == .incompatible }
    }

    public struct Chapter: Codable, Sendable, Equatable {
        public var id: Int64
        public var start: Double
        public var end: Double
        public var title: String?
        public var tags: [String: String]
    }
}

extension MediaInfo {
    /// Whether the file is shown as a folder: a video, or audio that has chapters or cover art.
    /// A still image (read by one of libavformat's image demuxers) is not a video.
    public var isBrowsable: Bool {
        if isStillImage { return false }
        if streams.contains(where: \.isMovingVideo) { return true }
        let hasAudio = streams.contains { $0.kind == .audio }
        return hasAudio && (!chapters.isEmpty || streams.contains(where: \.isAttachedPicture))
    }
}

extension MediaInfo {
    /// Read by an image demuxer (`image2`, `jpeg_pipe`, `png_pipe`, …): a picture, not a film.
    public var isStillImage: Bool {
        container.format == "image2" || container.format.hasSuffix("_pipe")
    }
}
