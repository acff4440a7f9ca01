/// The file formats mediafs writes pictures in. Plain values, so they cross a process boundary.
public enum ImageFormat: String, Codable, Sendable, Hashable, CaseIterable {
    /// PNG, uncompressed (`PNGEncoder`): exact pixels, about 3 bytes a pixel.
    case png
    /// Baseline JFIF JPEG, 4:4:4 (`JPEGEncoder`): a byte budget known before decoding
    /// (`JPEGBudget`), quality as high as fits.
    case jpeg

    /// The extension of file names in this format, without the dot: `png`, `jpg`.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        }
    }

    /// The format of a file name's extension (without the dot, any case): `png`; `jpg` or `jpeg`.
    /// Nil for any other.
    public init?(fileExtension: some StringProtocol) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: return nil
        }
    }

    /// The format of a stored picture from FFmpeg's codec name (`CoverArt.codec`,
    /// `ChapterImage.codec`): `png` is PNG, `mjpeg` is JPEG; nil for any other (BMP, GIF, …),
    /// which mediafs converts rather than serves as stored.
    public init?(codec: String) {
        switch codec {
        case "png": self = .png
        case "mjpeg": self = .jpeg
        default: return nil
        }
    }

    /// FFmpeg's name of the codec that reads this format: `png`, `mjpeg`.
    public var codec: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "mjpeg"
        }
    }
}
