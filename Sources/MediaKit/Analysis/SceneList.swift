/// The hard cuts of a film's video: where one shot ends and the next begins, each to the frame.
/// Fades and dissolves are not hard cuts; a jump cut inside one camera's shot is. And the credits
/// at its end, where they are text on black.
public struct SceneList: Codable, Hashable, Sendable {
    /// The cuts in time order; the film's first scene starts at its first frame and is not one.
    public var cuts: [SceneCut]
    /// The video's frames, and its length in seconds on the same clock as `SceneCut.seconds`.
    public var frames: Int
    public var duration: Double
    /// The credits at the end where they are text on black (`MediaSegment.Method.textOnBlack`):
    /// one segment or none; nil in a list made before they were looked for.
    public var endCredits: [MediaSegment]?
}

/// One hard cut: the first frame of the new scene.
public struct SceneCut: Codable, Hashable, Sendable {
    /// Seconds from the video's first frame (the clock of `ThumbnailRequest` times and of the
    /// mount's `thumbs/at-T` names), rounded to the microsecond: a thumbnail at this time is this
    /// frame.
    public var seconds: Double
    /// The frame's number in presentation order, from 0.
    public var frame: Int
    /// How unlike each other the frames either side of the cut are, 0 (alike) to 1: chapters made
    /// from scenes start at the strongest cut near where they are wanted.
    public var strength: Double
}
