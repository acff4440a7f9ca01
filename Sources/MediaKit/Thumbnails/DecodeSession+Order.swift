/// Frames in presentation order: what the decoder gives, timed in its order (`FrameOrder`), from
/// the first keyframe after a seek on.
extension DecodeSession {
    /// The next decoded frame in presentation order that can be shown (after a seek, from the
    /// first keyframe on), or nil at the end of the stream.
    func decodeNextShowable() throws -> Frame? {
        while let frame = try decodeNext() {
            if awaitingKeyframe && !frame.isKeyframe { continue }
            awaitingKeyframe = false
            return frame
        }
        return nil
    }

    /// The next frame in presentation order, timed in the decoder's order (`FrameOrder`), or nil
    /// once the decoder is drained.
    /// - Throws: as `decodeOne()`.
    func decodeNext() throws -> Frame? {
        while true {
            if let frame = order.next() { return frame }
            guard let frame = try decodeOne() else {
                guard !order.isEmpty else { return nil }
                order.ended()
                continue
            }
            order.received(frame)
        }
    }
}
