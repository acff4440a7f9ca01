import MediaKit

/// How one image of a media folder (the cover, a chapter's image) is made in one format, decided
/// from the probe, the chapter list and at most the stored picture's header, never by decoding,
/// so that its exact size is known at `stat`.
enum ImagePlan: Hashable, Sendable {
    /// A stored picture already in the format wanted (JPEG or PNG): served byte for byte,
    /// `byteCount` long.
    case stored(StoredPicture, byteCount: Int, format: ImageFormat)
    /// A stored picture in another format, decoded and written in `format` at its own size.
    case converted(StoredPicture, codec: String, width: Int, height: Int, format: ImageFormat)
    /// A frame of the video near a chapter's start, at the mount's default thumbnail size.
    case frame(FramePlan)

    /// The exact length of the image in bytes.
    var size: Int {
        switch self {
        case .stored(_, let byteCount, _): return byteCount
        case .converted(_, _, let width, let height, let format):
            return ImageEncoder.encodedSize(format: format, width: width, height: height, source: .unknown)
        case .frame(let plan):
            return ImageEncoder.encodedSize(format: plan.format, width: plan.width, height: plan.height, source: plan.source)
        }
    }

    var format: ImageFormat {
        switch self {
        case .stored(_, _, let format), .converted(_, _, _, _, let format): return format
        case .frame(let plan): return plan.format
        }
    }

    /// What the image shows: `artwork` (the chapter's own picture), `cover` or `frame`.
    var kind: String {
        switch self {
        case .stored(let picture, _, _), .converted(let picture, _, _, _, _):
            if case .cover = picture { return "cover" }
            return "artwork"
        case .frame: return "frame"
        }
    }
}

/// A picture stored in the media file.
enum StoredPicture: Hashable, Sendable {
    /// The own image of the chapter at this index of the default edition (an MP4 chapter image track sample).
    case chapterArtwork(index: Int)
    /// The file's cover art (`MediaInfo.coverStream`).
    case cover
}

/// The frame a chapter without a picture of its own shows: the first of `times` that is not almost
/// black (`ChapterFrameTimes`), else the first, scaled to `width` × `height`.
struct FramePlan: Hashable, Sendable {
    var streamIndex: Int
    var times: [Double]
    var width: Int
    var height: Int
    var format: ImageFormat
    var source: PictureSource
}

/// An image made for the tree and kept in memory: a thumbnail, a chapter image or a cover.
struct MadeImage: Sendable {
    var bytes: [UInt8]
    /// For frames: the presentation time of the frame shown, and whether it is a keyframe.
    var frameTime: Double?
    var isKeyframe: Bool?

    init(bytes: [UInt8], frameTime: Double? = nil, isKeyframe: Bool? = nil) {
        self.bytes = bytes
        self.frameTime = frameTime
        self.isKeyframe = isKeyframe
    }
}
