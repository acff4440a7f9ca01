/// What a made file holds: its bytes, and for a frame of the video, which frame it shows.
struct MadeBytes: Sendable {
    var bytes: [UInt8]
    var frame: ShownFrame?

    init(bytes: [UInt8], frame: ShownFrame? = nil) {
        self.bytes = bytes
        self.frame = frame
    }
}

/// The frame a picture shows: its presentation time (seconds from the stream's first frame) and
/// whether it is a keyframe (`user.mediafs.time`, `user.mediafs.keyframe`).
struct ShownFrame: Sendable, Hashable {
    var time: Double
    var isKeyframe: Bool
}
