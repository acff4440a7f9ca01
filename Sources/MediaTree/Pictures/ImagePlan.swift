import MediaKit

/// How one image of a media folder (the cover, a chapter's image) is made in one format, decided
/// from the probe, the chapter list and at most the stored picture's header, never by decoding,
/// so that its exact size is known at `stat`.
enum ImagePlan: Hashable, Sendable, Codable {
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

    /// What the image shows (`user.mediafs.chapter.image`).
    enum Shows: String {
        /// The chapter's own picture.
        case artwork
        case cover
        case frame
    }

    var shows: Shows {
        switch self {
        case .stored(.cover, _, _), .converted(.cover, _, _, _, _): return .cover
        case .stored(.chapterArtwork, _, _), .converted(.chapterArtwork, _, _, _, _): return .artwork
        case .frame: return .frame
        }
    }
}

/// A picture stored in the media file.
enum StoredPicture: Hashable, Sendable, Codable {
    /// The own image of the chapter at this index of the default edition (an MP4 chapter image track sample).
    case chapterArtwork(index: Int)
    /// The file's cover art (`MediaInfo.coverStream`).
    case cover
}

/// The frame a chapter without a picture of its own shows: the first of `times` that is not almost
/// black (`ChapterFrameTimes`), else the first, scaled to `width` × `height`.
struct FramePlan: Hashable, Sendable, Codable {
    var streamIndex: Int
    var times: [Double]
    var width: Int
    var height: Int
    var format: ImageFormat
    var source: PictureSource
}
