import CAV

/// Sends packets to a decoder and turns what comes out into `PictureSignature`s; the one
/// place the scene analysis talks to libavcodec, and the owner of the small scaler that
/// formats other than planar YUV need.
final class PictureMaker {
    private let fallback = Scaler(flags: SWS_AREA)
    /// Frames decoded so far (what the analysis cost).
    private(set) var decoded = 0

    func signature(of frame: Frame) throws -> PictureSignature {
        try PictureSignature(of: frame, fallback: fallback)
    }

    /// Sends `packet` to `decoder`, handing every frame it gives out meanwhile to `each`.
    /// The corresponding C functions are `avcodec_send_packet` and `avcodec_receive_frame`.
    /// - Throws: `MediaError.damaged` for a packet that does not decode or a frame the decoder
    ///   made up in part (`Frame.isConcealed`): such a frame is not the film's.
    func send(_ packet: Packet, to decoder: VideoDecoder, each: (Frame) throws -> Void) throws {
        while true {
            let sent = avcodec_send_packet(decoder.context, packet.pointer)
            if sent == cav_error_eagain() {
                try receive(decoder, each: each)
                continue
            }
            if sent < 0 {
                throw MediaError.damaged(reason: "a packet of the video stream does not decode (\(averrorText(sent)))")
            }
            try receive(decoder, each: each)
            return
        }
    }

    /// Gives out what the decoder still holds, then empties it for what comes next.
    func drain(_ decoder: VideoDecoder, each: (Frame) throws -> Void) throws {
        _ = avcodec_send_packet(decoder.context, nil)
        try receive(decoder, each: each)
        decoder.flush()
    }

    private func receive(_ decoder: VideoDecoder, each: (Frame) throws -> Void) throws {
        while true {
            let frame = try Frame()
            let received = avcodec_receive_frame(decoder.context, frame.pointer)
            if received == cav_error_eagain() || received == cav_error_eof() { return }
            if received < 0 {
                throw MediaError.damaged(reason: "a frame of the video stream does not decode (\(averrorText(received)))")
            }
            guard let time = frame.packetTimestamp else {
                throw MediaError.damaged(reason: "the decoder gave a frame without a time")
            }
            frame.pts = time
            if frame.isConcealed {
                throw MediaError.damaged(reason: "the frame at pts \(time) does not decode whole")
            }
            decoded += 1
            try each(frame)
        }
    }
}
