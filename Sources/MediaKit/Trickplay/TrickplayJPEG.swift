/// The byte length of every JPEG the server layout's pictures are made of: a BIF's frames and
/// Jellyfin's trickplay sheets. The one place they ask the JPEG budget, so a budget that comes
/// to depend on more than the picture's size changes here only.
public enum TrickplayJPEG {
    /// The exact length of the JPEG of a `width` × `height` picture (`JPEGEncoder`'s budget).
    public static func byteCount(width: Int, height: Int) -> Int {
        ImageEncoder.encodedSize(format: .jpeg, width: width, height: height)
    }
}
