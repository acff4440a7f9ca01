/// The credits at a film's end where they are text on black (a roll, or cards with black between):
/// found among the keyframes the scene analysis decoded anyway (`StreamSurvey.tones`), then each
/// end placed to the frame by decoding the group of pictures it falls in.
///
/// A run of keyframes, each black or text on black (`PictureTone`), one of them text at least,
/// starting in the film's second half and its last `window` seconds, is taken where it ends no more
/// than `after` seconds before the film does (a scene after the credits) and lasts `least`
/// seconds, its ends placed. The last such run is the credits (a short card after a scene after
/// them does not hide them). Credits over a picture, on a
/// ground that is not flat black (grain, a gradient), or in a film whose keyframes are further
/// apart than its credits are long, are not found: nothing is shown rather than a guess.
struct EndCredits {
    /// The longest credits looked for, in seconds: where they may start, counted from the end.
    var window = 900.0
    /// The shortest credits taken, in seconds.
    var least = 15.0
    /// The most the film may go on after its credits, in seconds.
    var after = 180.0
    /// Frames in a row a tone must hold for the picture to count as changed (one frame of a roll
    /// read as a picture is not the credits' end).
    var steady = 3

    /// Where the credits are, by frame: the first frame of them, and the first frame after them
    /// (nil where they last to the film's end); nil where there are none.
    /// - Parameters:
    ///   - seconds: the time of a frame of `survey`, on the clock of `duration`.
    ///   - decode: the tones of every frame of a group of pictures (a keyframe's number to the frame
    ///     before the next).
    func find(in survey: StreamSurvey, duration: Double, seconds: (Int) -> Double,
              decode: (ClosedRange<Int>) throws -> [Int: PictureTone]) throws -> (start: Int, end: Int?)? {
        let keys = survey.keyframes
        let earliest = duration - min(duration / 2, window)
        // The last run that holds: a short card after the credits and a scene does not hide them.
        let runs = darkRuns(keys, survey.tones).filter { $0.lowerBound > 0 && seconds(keys[$0.lowerBound]) >= earliest }
        for run in runs.reversed() {
            if let found = try place(run, in: survey, duration: duration, seconds: seconds, decode: decode) { return found }
        }
        return nil
    }

    /// The ends of the credits whose keyframes are `run` (indices into the keyframes), each to the
    /// frame; nil where they are too short or end too long before the film does.
    private func place(_ run: ClosedRange<Int>, in survey: StreamSurvey, duration: Double, seconds: (Int) -> Double,
                       decode: (ClosedRange<Int>) throws -> [Int: PictureTone]) throws -> (start: Int, end: Int?)? {
        let keys = survey.keyframes, frames = survey.times.count
        func group(_ index: Int) -> ClosedRange<Int> {
            keys[index]...(index + 1 < keys.count ? keys[index + 1] - 1 : frames - 1)
        }
        // The first frame of the credits: after the last steady picture in the group before.
        let before = try decode(group(run.lowerBound - 1))
        var start = keys[run.lowerBound]
        var frame = start - 1
        while frame >= keys[run.lowerBound - 1], !isSteady(.picture, endingAt: frame, before, backwards: true) {
            start = frame
            frame -= 1
        }
        // The first frame after them: the first steady picture from the run's last keyframe on.
        let last = try decode(group(run.upperBound))
        var end: Int? = run.upperBound + 1 < keys.count ? keys[run.upperBound + 1] : nil
        for frame in group(run.upperBound) where isSteady(.picture, endingAt: frame, last, backwards: false) {
            end = frame
            break
        }
        let endSeconds = end.map(seconds) ?? duration
        guard duration - endSeconds <= after, endSeconds - seconds(start) >= least else { return nil }
        return (start, end)
    }

    /// The runs of consecutive keyframes (indices into `keys`) that are all dark, with one of text
    /// at least.
    private func darkRuns(_ keys: [Int], _ tones: [Int: PictureTone]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var first: Int?
        for index in keys.indices.map({ $0 }) + [keys.count] {
            let isDark = index < keys.count && tones[keys[index]]?.isDark == true
            if isDark, first == nil { first = index }
            if !isDark, let start = first {
                let run = start...(index - 1)
                if run.contains(where: { tones[keys[$0]] == .textOnBlack }) { runs.append(run) }
                first = nil
            }
        }
        return runs
    }

    /// Whether `tone` holds at `frame` and the `steady - 1` frames before it (`backwards`) or
    /// after it, among those decoded (a group's edge ends the count).
    private func isSteady(_ tone: PictureTone, endingAt frame: Int, _ tones: [Int: PictureTone], backwards: Bool) -> Bool {
        guard tones[frame] == tone else { return false }
        for offset in 1..<steady {
            guard let other = tones[backwards ? frame - offset : frame + offset] else { return true }
            if other != tone { return false }
        }
        return true
    }
}
