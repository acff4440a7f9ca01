import CAV

/// Sends packets to a decoder and turns what comes out into `PictureSignature`s; the one
/// place the scene analysis talks to libavcodec, and the owner of the small scaler that
/// formats other than planar YUV need.
final class PictureMaker {
    private let fallback = Scaler(flags: SWS_AREA)
    /// Frames decoded so far (what the analysis cost).
    private(set) var decoded = 0
    /// The frames out of the decoder, timed in its order, until the next `drain`.
    private var order = FrameOrder()

    func signature(of frame: Frame) throws -> PictureSignature {
        try PictureSignature(of: frame, fallback: fallback)
    }

    /// Sends `packet` to `decoder`, handing every frame it gives out meanwhile to `each`, in
    /// presentation order and timed in it (`FrameOrder`). `whole`: the decoder is not asked to
    /// leave the packet's frame out (`AVDISCARD_NONREF`), so its frame is to come out.
    /// The corresponding C functions are `avcodec_send_packet` and `avcodec_receive_frame`.
    /// - Throws: `MediaError.damaged` for a packet that does not decode or a frame the decoder
    ///   made up in part (`Frame.isConcealed`): such a frame is not the film's.
    func send(_ packet: Packet, to decoder: VideoDecoder, whole: Bool = true, each: (Frame) throws -> Void) throws {
        let time = packet.pointer.pointee.pts
        if whole && time != cav_nopts_value() { order.sent(time) }
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

    /// Forgets the frames held for their times: the decoder was emptied (a seek).
    func startOver() {
        order.reset()
    }

    /// Gives out what the decoder still holds, then empties it for what comes next.
    func drain(_ decoder: VideoDecoder, each: (Frame) throws -> Void) throws {
        _ = avcodec_send_packet(decoder.context, nil)
        try receive(decoder, each: each)
        order.ended()
        while let frame = order.next() { try each(frame) }
        order.reset()
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
            order.received(frame)
            while let ready = order.next() { try each(ready) }
        }
    }
}
