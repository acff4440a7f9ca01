/// The one entry point that writes a picture in either format, and tells the file's exact length
/// from its size alone, before anything is decoded: what lets the tree give `stat` sizes from the
/// probe.
public enum ImageEncoder {
    /// The largest side accepted in any format, in pixels (`PNGEncoder.maximumSide`, which
    /// `JPEGEncoder.maximumSide` equals).
    public static let maximumSide = PNGEncoder.maximumSide

    /// The exact length in bytes of the file `encode(_:format:)` writes for a `width` × `height`
    /// picture in `format`, whatever its pixels (`PNGEncoder.encodedSize`, `JPEGEncoder.encodedSize`).
    /// `width` and `height` are 1…`maximumSide`.
    public static func encodedSize(format: ImageFormat, width: Int, height: Int) -> Int {
        switch format {
        case .png: return PNGEncoder.encodedSize(width: width, height: height)
        case .jpeg: return JPEGEncoder.encodedSize(width: width, height: height)
        }
    }

    /// `image` written in `format`: exactly `encodedSize(format:width:height:)` bytes.
    /// - Throws: `MediaError.imageFailed` for a side past `maximumSide` or an error of libpng or
    ///   libjpeg.
    public static func encode(_ image: RGBImage, format: ImageFormat) throws -> [UInt8] {
        switch format {
        case .png: return try PNGEncoder.encode(image)
        case .jpeg: return try JPEGEncoder.encode(image).bytes
        }
    }
}
