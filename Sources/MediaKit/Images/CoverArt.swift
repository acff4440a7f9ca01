import CAV
import SystemPackage

/// A picture attached to a media file as its cover (MP4 `covr`, a Matroska image attachment, an
/// ID3 APIC frame, a FLAC PICTURE block), as stored.
public struct CoverArt: Codable, Sendable, Equatable {
    /// The picture's bytes, as stored in the file.
    public var bytes: [UInt8]
    /// FFmpeg's codec name: `mjpeg`, `png`, …
    public var codec: String
    /// The container index of the stream libavformat shows the picture as.
    public var streamIndex: Int

    public init(bytes: [UInt8], codec: String, streamIndex: Int) {
        self.bytes = bytes
        self.codec = codec
        self.streamIndex = streamIndex
    }

    /// The format the picture is stored in, where mediafs can serve it as it is (`bytes`, byte for
    /// byte, `bytes.count` long): JPEG or PNG. Nil for another codec (BMP, GIF, …), which is
    /// converted (`MediaService.stillImage`).
    public var format: ImageFormat? { ImageFormat(codec: codec) }
}

extension MediaInfo.Stream {
    /// A picture attached as cover art: `attached_pic`, and not the first image of an MP4
    /// chapter image track (which libavformat also marks `attached_pic`, with `timed_thumbnails`).
    public var isCoverArt: Bool {
        kind == .video && disposition.contains("attached_pic") && !disposition.contains("timed_thumbnails")
    }
}

extension MediaInfo {
    /// The file's cover: the first stream that is cover art (`Stream.isCoverArt`); nil for none.
    public var coverStream: Stream? { streams.first(where: \.isCoverArt) }
}

/// Reads the cover picture's bytes from the header libavformat reads (the `attached_pic` packet);
/// no stream is analysed and nothing is decoded.
enum CoverArtReader {
    /// The bytes of the first cover-art stream (the same one `MediaInfo.coverStream` names), or nil.
    /// - Throws: `MediaError.notMedia` when the header cannot be read, `.timedOut` past `timeout`,
    ///   `.unreadable` where reading it failed.
    static func read(path: FilePath, timeout: Double) throws -> CoverArt? {
        let file = try InputFile(path: path, timeout: timeout, findStreamInfo: false)
        try file.checkReads()
        for stream in file.streams {
            let s = stream.pointee
            let disposition = s.disposition
            guard s.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                  disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
                  disposition & AV_DISPOSITION_TIMED_THUMBNAILS == 0 else { continue }
            let packet = s.attached_pic
            guard let data = packet.data, packet.size > 0 else { return nil }
            let bytes = [UInt8](UnsafeBufferPointer(start: data, count: Int(packet.size)))
            return CoverArt(bytes: bytes, codec: String(cString: avcodec_get_name(s.codecpar.pointee.codec_id)),
                            streamIndex: Int(s.index))
        }
        return nil
    }
}
