/// Finds the highest libjpeg quality (1–100) at which a picture fits, in few encodes.
///
/// A bisection over the qualities, except that the first probes are where film frames land
/// (`firstProbes`: on the bench films at 320 wide the median is 85–94): a frame at 93 or above
/// takes 4 encodes, one from 85 to 92 about 5, against 7 for a plain bisection of 1–100; a
/// picture that needs less than 85 takes about 9. It assumes that the length grows with the
/// quality; where libjpeg's does not, the quality found still fits, maybe not the highest. The
/// probes depend only on which earlier ones fitted, so the same pixels give the same file.
enum JPEGQualitySearch {
    /// The qualities tried first, each where it lies inside the range still open.
    static let firstProbes = [93, 85]
    static let qualities = 1...100

    /// The highest quality for which `attempt` gives a file, and that file; nil when none does.
    /// - Parameter attempt: the file at a quality, or nil when it does not fit. Called at most
    ///   ⌈log₂ 100⌉ + 2 = 9 times.
    static func highest(_ attempt: (Int) throws -> [UInt8]?) rethrows -> (bytes: [UInt8], quality: Int)? {
        var best: (bytes: [UInt8], quality: Int)?
        // Every quality up to `fits` fits (as far as the search knows), none from `fails` on.
        var fits = qualities.lowerBound - 1, fails = qualities.upperBound + 1
        while fails - fits > 1 {
            let quality = firstProbes.first { $0 > fits && $0 < fails } ?? (fits + fails + 1) / 2
            if let jpeg = try attempt(quality) {
                best = (jpeg, quality)
                fits = quality
            } else {
                fails = quality
            }
        }
        return best
    }
}
