import MediaKit

/// How one image of a media folder (`cover.png`, a chapter's image) is made, decided from the
/// probe, the chapter list and at most the stored picture's header, never by decoding, so that its
/// exact size is known at `stat`.
enum ImagePlan: Hashable, Sendable {
    /// A stored picture that is a PNG already: served byte for byte, `byteCount` long.
    case stored(StoredPicture, byteCount: Int)
    /// A stored picture in another format (JPEG, …), decoded and written by `PNGEncoder` at its
    /// own size.
    case converted(StoredPicture, codec: String, width: Int, height: Int)
    /// A frame of the video near a chapter's start, at the mount's default thumbnail size.
    case frame(FramePlan)

    /// The exact length of the PNG in bytes.
    var size: Int {
        switch self {
        case .stored(_, let byteCount): return byteCount
        case .converted(_, _, let width, let height): return PNGEncoder.encodedSize(width: width, height: height)
        case .frame(let plan): return PNGEncoder.encodedSize(width: plan.width, height: plan.height)
        }
    }

    /// What the image shows: `artwork` (the chapter's own picture), `cover` or `frame`.
    var kind: String {
        switch self {
        case .stored(let picture, _), .converted(let picture, _, _, _):
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
}

/// An image made for the tree and kept in memory: a thumbnail, a chapter image or a cover.
struct MadeImage: Sendable {
    var png: [UInt8]
    /// For frames: the presentation time of the frame shown, and whether it is a keyframe.
    var frameTime: Double?
    var isKeyframe: Bool?
}
