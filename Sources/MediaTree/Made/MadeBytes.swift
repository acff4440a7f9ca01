import MediaKit

/// What a made file holds: its bytes, and for a frame of the video, which frame it shows.
///
/// Kept in memory, its bytes may be deflated (`packed()`: a PNG is written uncompressed, so that
/// its length is known before it is made, and a picture of flat colours deflates to a tenth);
/// they are inflated to the very same bytes when read (`unpacked()`).
struct MadeBytes: Sendable {
    /// The bytes, or while packed, their deflated form.
    private(set) var bytes: [UInt8]
    var frame: ShownFrame?
    /// The length of the bytes while they are packed; nil when `bytes` are the bytes.
    private var packedLength: Int?

    init(bytes: [UInt8], frame: ShownFrame? = nil) {
        self.bytes = bytes
        self.frame = frame
    }

    /// What it takes in memory.
    var cost: Int { bytes.count }

    /// The same, deflated where that saves (`Deflate.compress`).
    func packed() -> MadeBytes {
        guard packedLength == nil, let deflated = Deflate.compress(bytes) else { return self }
        var packed = self
        packed.bytes = deflated
        packed.packedLength = bytes.count
        return packed
    }

    /// The same, with its bytes as made.
    /// - Throws: `MediaError.damaged` where the deflated bytes do not inflate (never, short of a bug).
    func unpacked() throws -> MadeBytes {
        guard let packedLength else { return self }
        return MadeBytes(bytes: try Deflate.decompress(bytes, size: packedLength), frame: frame)
    }
}

/// The frame a picture shows: its presentation time (seconds from the stream's first frame) and
/// whether it is a keyframe (`user.mediafs.time`, `user.mediafs.keyframe`).
struct ShownFrame: Sendable, Hashable {
    var time: Double
    var isKeyframe: Bool
}
