import CAV

/// The one owner of an `AVPacket`, freed in `deinit`. Its data is a reference that the user
/// drops with `unref()` after each use.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    /// The corresponding C function is `av_packet_alloc`.
    /// - Throws: `MediaError.library` when out of memory.
    init() throws {
        guard let packet = av_packet_alloc() else {
            throw MediaError.library(function: "av_packet_alloc", code: cav_averror(ENOMEM), message: "out of memory")
        }
        pointer = packet
    }

    /// A packet referring to the data of `other` (kept alive while either refers to it), with its
    /// times and flags. The corresponding C function is `av_packet_ref`.
    /// - Throws: `MediaError.library` when out of memory.
    convenience init(referencing other: Packet) throws {
        try self.init()
        let made = av_packet_ref(pointer, other.pointer)
        guard made >= 0 else {
            throw MediaError.library(function: "av_packet_ref", code: made, message: averrorText(made))
        }
    }

    /// Drops the data the packet refers to. The corresponding C function is `av_packet_unref`.
    func unref() {
        av_packet_unref(pointer)
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
