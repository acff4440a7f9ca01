/// Jellyfin's trickplay sheets and a BIF's frames, made in this process.
extension LocalMediaService {
    public func trickplaySheet(of file: MediaFile, layout: TrickplayLayout, sheet: Int) throws -> [UInt8] {
        try storyboards.trickplaySheet(of: file, layout: layout, sheet: sheet)
    }

    public func storyboardFrames(of file: MediaFile, storyboard: StoryboardLayout, frames: Range<Int>) throws -> [[UInt8]] {
        try storyboards.frames(of: file, storyboard: storyboard, frames: frames)
    }
}
