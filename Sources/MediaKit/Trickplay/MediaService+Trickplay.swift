/// Jellyfin's trickplay sheets and a BIF's frames, as `MediaService` makes them: the default
/// implementations throw (a service that makes no pictures, such as a test double), and
/// `LocalMediaService` makes them in this process.
extension MediaService {
    public func trickplaySheet(of file: MediaFile, layout: TrickplayLayout, sheet: Int) throws -> [UInt8] {
        throw MediaError.unsupported(reason: "this media service makes no trickplay sheets")
    }

    public func storyboardFrames(of file: MediaFile, storyboard: StoryboardLayout, frames: Range<Int>) throws -> [[UInt8]] {
        throw MediaError.unsupported(reason: "this media service makes no storyboard frames")
    }
}

extension LocalMediaService {
    public func trickplaySheet(of file: MediaFile, layout: TrickplayLayout, sheet: Int) throws -> [UInt8] {
        try storyboards.trickplaySheet(of: file, layout: layout, sheet: sheet)
    }

    public func storyboardFrames(of file: MediaFile, storyboard: StoryboardLayout, frames: Range<Int>) throws -> [[UInt8]] {
        try storyboards.frames(of: file, storyboard: storyboard, frames: frames)
    }
}
