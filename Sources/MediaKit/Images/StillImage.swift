import CAV
import Glibc

/// Turns one encoded picture (a JPEG or PNG chapter image or cover, or any still image libavcodec
/// decodes) into a PNG or JPEG of a given size, written by `ImageEncoder` so that its length is
/// known from the size alone.
public enum StillImage {
    /// The most pixels a picture may have to be decoded (8192 × 8192): a bound on memory whatever
    /// a damaged or hostile file claims.
    public static let maximumPixels = 1 << 26

    /// Decodes `bytes` with the decoder for `codec` (FFmpeg's codec name: `mjpeg`, `png`, `bmp`,
    /// …) and writes the picture in `format` at `width` × `height` pixels (scaled where the decoded
    /// picture has another size), exactly `ImageEncoder.encodedSize(format:width:height:source:)` bytes
    /// long. The same format as stored is re-encoded too (at the size asked for): serving the
    /// stored bytes instead is the caller's choice.
    /// The corresponding C functions are `avcodec_send_packet` and `avcodec_receive_frame`.
    /// - Throws: `MediaError.unsupported` for a codec libavcodec cannot decode, `.damaged` for
    ///   bytes it cannot decode, `.imageFailed` for a bad size.
    static func convert(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        guard width >= 1, height >= 1, width <= ImageEncoder.maximumSide, height <= ImageEncoder.maximumSide else {
            throw MediaError.imageFailed(reason: "a picture of \(width)x\(height) pixels")
        }
        guard !bytes.isEmpty, bytes.count <= FileReader.maximumRead else {
            throw MediaError.damaged(reason: "a \(codec) picture of \(bytes.count) bytes")
        }
        guard let descriptor = avcodec_descriptor_get_by_name(codec),
              let decoder = avcodec_find_decoder(descriptor.pointee.id) else {
            throw MediaError.unsupported(reason: "no decoder for the picture codec \(codec)")
        }
        guard let allocated = avcodec_alloc_context3(decoder) else {
            throw MediaError.library(function: "avcodec_alloc_context3", code: cav_averror(ENOMEM), message: "out of memory")
        }
        var context: UnsafeMutablePointer<AVCodecContext>? = allocated
        defer { avcodec_free_context(&context) }
        allocated.pointee.thread_count = 1
        allocated.pointee.max_pixels = Int64(maximumPixels)
        try check(avcodec_open2(allocated, decoder, nil), "avcodec_open2")

        let packet = try Packet()
        try check(av_new_packet(packet.pointer, Int32(bytes.count)), "av_new_packet")
        bytes.withUnsafeBytes { source in
            _ = memcpy(packet.pointer.pointee.data, source.baseAddress!, bytes.count)
        }
        let sent = avcodec_send_packet(allocated, packet.pointer)
        guard sent >= 0 else { throw MediaError.damaged(reason: "the \(codec) picture: \(averrorText(sent))") }
        _ = avcodec_send_packet(allocated, nil)
        let frame = try Frame()
        let received = avcodec_receive_frame(allocated, frame.pointer)
        guard received >= 0 else {
            throw MediaError.damaged(reason: "the \(codec) picture gave no image: \(averrorText(received))")
        }
        let image = try Scaler().scale(frame, width: width, height: height)
        // A stored picture is no video's frame: its source is unknown (the budget's floor).
        return try ImageEncoder.encode(image, format: format, source: .unknown)
    }
}
