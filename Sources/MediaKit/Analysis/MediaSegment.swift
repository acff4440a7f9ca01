/// A stretch of a film a player may skip: an intro or the credits, with how it was found.
public struct MediaSegment: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        case intro, credits
    }

    /// How a segment was found.
    public enum Method: String, Codable, Hashable, Sendable {
        /// Its audio is heard in other episodes of the same season at the same place.
        case sharedAudio = "shared-audio"
        /// Its pictures are text on a flat black ground, to the film's end (`SceneList.endCredits`).
        case textOnBlack = "text-on-black"
    }

    public var kind: Kind
    /// Seconds from the video's first frame (as `SceneCut.seconds`).
    public var start: Double
    public var end: Double
    public var foundBy: Method
    /// How many other episodes share it (0 for what a film's own pictures show).
    public var sharedWith: Int
}
