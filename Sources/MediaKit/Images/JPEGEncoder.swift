/// Writes RGB pictures as baseline JFIF JPEG files whose length is known before decoding.
///
/// Every picture gets a byte budget from its size and its source (`JPEGBudget`: what the probe
/// tells of the video it is taken from), so the tree can give a thumbnail's exact size at
/// `stat` time without decoding. The encoder
/// looks for the highest libjpeg quality whose file fits the budget, then pads the file to the
/// budget exactly with comment (COM) segments after the JFIF header (`JPEGPadding`). Colour is
/// kept at full resolution (4:4:4); a picture that does not fit so even at quality 1 (noise does
/// not, at some sizes) is searched again at half colour resolution (4:2:0), and one that fits
/// at neither (no frame comes close; only hostile pixels could) is written as a mosaic of 32×32
/// tiles, whose length has a proven bound inside every budget (`JPEGMosaic`). So `encode` never
/// gives another length, and which file it gives depends on the pixels alone.
///
/// The file: SOI, JFIF APP0, the COM padding, DQT, SOF0 (baseline, 8-bit YCbCr), DHT, one
/// sequential scan, EOI: what every viewer decodes the same way.
public enum JPEGEncoder {
    /// The largest side accepted, in pixels: as PNG's (`PNGEncoder.maximumSide`).
    public static let maximumSide = 16_384

    /// How much colour detail a JPEG keeps.
    public enum Chroma: String, Sendable, Codable {
        /// Cb and Cr at full resolution (4:4:4; 8×8-pixel MCUs): what every picture is tried at
        /// first, and what frames get.
        case full
        /// Cb and Cr at half the width and half the height (4:2:0; 16×16-pixel MCUs): for a
        /// picture that does not fit at full colour even at quality 1, and the mosaic.
        case halved
    }

    /// A written JPEG and how it was made.
    public struct Encoded: Sendable, Equatable {
        /// The file's bytes: exactly as long as the budget.
        public var bytes: [UInt8]
        /// The libjpeg quality (1–100) of the pixels; nil for the mosaic fallback.
        public var quality: Int?
        /// The colour resolution the pixels were written with.
        public var chroma: Chroma
        /// Bytes of the file that are padding (the COM segments, their markers included).
        public var paddingBytes: Int
    }

    /// Encodes `image` (8-bit RGB) as a JPEG of exactly `budget.bytes` bytes, at the highest
    /// quality that fits. The corresponding C function is `cjpeg_write_rgb24`.
    /// - Throws: `MediaError.imageFailed` for a side past `maximumSide`, a budget made for
    ///   another size, or a libjpeg error.
    public static func encode(_ image: RGBImage, budget: JPEGBudget) throws -> Encoded {
        guard image.width <= maximumSide, image.height <= maximumSide else {
            throw MediaError.imageFailed(reason: "\(image.width)x\(image.height) is larger than \(maximumSide) pixels a side")
        }
        guard image.width == budget.width, image.height == budget.height else {
            throw MediaError.imageFailed(reason: "a \(image.width)x\(image.height) picture with the budget of \(budget.width)x\(budget.height)")
        }
        return try encode(image, budget: budget.bytes)
    }

    /// `image` as a JPEG of exactly `budget` bytes: the highest quality that fits at full colour
    /// (`JPEGQualitySearch`), else at half colour resolution, else the mosaic.
    /// - Parameter chromas: the colour resolutions tried, in order (the measurements try one alone).
    /// - Throws: `MediaError.imageFailed` for a libjpeg error, or a budget below
    ///   `JPEGMosaic.bound` that even the mosaic does not fit.
    static func encode(_ image: RGBImage, budget: Int, chromas: [Chroma] = [.full, .halved]) throws -> Encoded {
        let tables = JPEGBudget.tables(width: image.width, height: image.height)
        for chroma in chromas {
            let found = try JPEGQualitySearch.highest { quality in
                guard let jpeg = try JPEGCompressor.compress(image, quality: quality, tables: tables, chroma: chroma, limit: budget),
                      JPEGPadding.canPad(jpeg.count, to: budget) else { return nil }
                return jpeg
            }
            if let found {
                return Encoded(bytes: try JPEGPadding.pad(found.bytes, to: budget), quality: found.quality, chroma: chroma,
                               paddingBytes: budget - found.bytes.count)
            }
        }
        guard let jpeg = try JPEGMosaic.compress(image, limit: budget), JPEGPadding.canPad(jpeg.count, to: budget) else {
            throw MediaError.imageFailed(reason: "a \(image.width)x\(image.height) JPEG does not fit in \(budget) bytes even as a mosaic")
        }
        return Encoded(bytes: try JPEGPadding.pad(jpeg, to: budget), quality: nil, chroma: .halved, paddingBytes: budget - jpeg.count)
    }

    /// The libjpeg-turbo version linked in, e.g. 2001005 for 2.1.5.
    public static var libjpegTurboVersion: Int { JPEGCompressor.libjpegTurboVersion }
}
