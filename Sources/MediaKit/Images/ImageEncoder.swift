/// The one entry point that writes a picture in either format, and tells the file's exact length
/// before anything is decoded, from its size and what the probe tells of its source: what lets
/// the tree give `stat` sizes from the probe.
public enum ImageEncoder {
    /// The largest side accepted in any format, in pixels (`PNGEncoder.maximumSide`, which
    /// `JPEGEncoder.maximumSide` equals).
    public static let maximumSide = PNGEncoder.maximumSide

    /// The exact length in bytes of the file `encode(_:format:source:)` writes for a `width` ×
    /// `height` picture of `source` in `format`, whatever its pixels (`PNGEncoder.encodedSize`,
    /// `JPEGBudget`). `width` and `height` are 1…`maximumSide`.
    public static func encodedSize(format: ImageFormat, width: Int, height: Int, source: PictureSource) -> Int {
        encodedSize(format: format, budget: JPEGBudget(width: width, height: height, source: source))
    }

    /// The exact length in bytes of the file `encode(_:format:budget:)` writes in `format` for
    /// a picture of `budget`'s size: the PNG's, or the JPEG budget's.
    public static func encodedSize(format: ImageFormat, budget: JPEGBudget) -> Int {
        switch format {
        case .png: return PNGEncoder.encodedSize(width: budget.width, height: budget.height)
        case .jpeg: return budget.bytes
        }
    }

    /// `image` of `source` written in `format`: exactly `encodedSize(format:width:height:source:)` bytes.
    /// - Throws: `MediaError.imageFailed` for a side past `maximumSide` or an error of libpng or
    ///   libjpeg.
    public static func encode(_ image: RGBImage, format: ImageFormat, source: PictureSource) throws -> [UInt8] {
        try encode(image, format: format, budget: JPEGBudget(width: image.width, height: image.height, source: source))
    }

    /// `image` written in `format`: exactly `encodedSize(format:budget:)` bytes.
    /// - Throws: `MediaError.imageFailed` for a side past `maximumSide`, a budget of another
    ///   size, or an error of libpng or libjpeg.
    public static func encode(_ image: RGBImage, format: ImageFormat, budget: JPEGBudget) throws -> [UInt8] {
        switch format {
        case .png: return try PNGEncoder.encode(image)
        case .jpeg: return try JPEGEncoder.encode(image, budget: budget).bytes
        }
    }
}
