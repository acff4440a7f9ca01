/// What the JPEG budget knows of the video a picture is taken from, at `stat` time and without
/// decoding: how many bits the source's encoder spent on each pixel of each frame. Film grain,
/// noise, foliage, water and lit night scenes cost the source's encoder more bits, and cost a
/// JPEG of the picture more bytes (`JPEGBudget`). Plain values, so that it can cross a process
/// boundary inside a request and so that the size given at `stat` and the file made later use
/// the same one.
public struct PictureSource: Codable, Sendable, Hashable {
    /// The video's bit rate divided by its width × height × frame rate, in thousandths of a bit
    /// (a 2 Mbit/s 1080p film at 25 fps: 38); nil where the probe does not tell (a still picture,
    /// a stream without a bit rate or frame rate).
    public var milliBitsPerPixel: Int?

    public init(milliBitsPerPixel: Int?) {
        self.milliBitsPerPixel = milliBitsPerPixel
    }

    /// Nothing known: the budget's floor (`JPEGBudget.floorBytesPerUnit`). Covers and chapter
    /// artwork, which are no video's frames, have it.
    public static let unknown = PictureSource(milliBitsPerPixel: nil)
}
