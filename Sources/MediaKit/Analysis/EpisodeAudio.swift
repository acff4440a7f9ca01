/// What an episode's audio is compared by (Chromaprint's raw fingerprints): its first quarter (at
/// most ten minutes) and its end, where a season's intro and credits are.
public struct EpisodeAudio: Codable, Hashable, Sendable {
    /// The fingerprint of the opening window, from the first frame.
    public var head: AudioFingerprint
    /// The fingerprint of the closing window.
    public var tail: AudioFingerprint
    /// The episode's length in seconds (the clock of `SceneCut.seconds`).
    public var duration: Double

    /// What is kept of an episode whose audio cannot be read for good (damaged): no fingerprint,
    /// so that it is compared with nothing and not read again at every mount.
    public static let unreadable = EpisodeAudio(head: AudioFingerprint(start: 0, itemSeconds: 0, items: []),
                                                tail: AudioFingerprint(start: 0, itemSeconds: 0, items: []), duration: 0)

    /// Whether it holds no fingerprint: `unreadable`, or audio too short or silent to give one.
    public var isEmpty: Bool { head.items.isEmpty && tail.items.isEmpty }
}

/// Chromaprint's raw fingerprint of a stretch of audio: one 32-bit item every `itemSeconds`.
public struct AudioFingerprint: Codable, Hashable, Sendable {
    /// Seconds from the video's first frame to the stretch's start.
    public var start: Double
    /// Seconds between items.
    public var itemSeconds: Double
    public var items: [UInt32]
}
