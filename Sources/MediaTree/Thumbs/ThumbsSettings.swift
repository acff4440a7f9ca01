import MediaKit

/// How `thumbs/` is made (`--thumb-size`, `--thumb-interval`).
public struct ThumbsSettings: Sendable, Encodable {
    /// The box of a thumbnail whose name asks for no size (and of chapter images taken from frames).
    public var box: ThumbnailBox = .width(320)
    /// Whole seconds between the thumbnails listed; nil picks one per duration.
    public var interval: Int?

    public init() {}
}
