import CAV

/// Reads a picture subtitle stream (PGS, DVD, DVB, XSUB) into text: each event's picture decoded,
/// prepared and read with Tesseract (`PictureReader`), written as SubRip with the picture's times.
final class PictureTextSink: TrackSink {
    /// The picture subtitle codecs read into text.
    static let codecs: Set<AVCodecID> = [AV_CODEC_ID_HDMV_PGS_SUBTITLE, AV_CODEC_ID_DVD_SUBTITLE,
                                         AV_CODEC_ID_DVB_SUBTITLE, AV_CODEC_ID_XSUB]
    let jobs: [TrackJob]
    private(set) var packetsSeen = 0

    init(jobs: [TrackJob], source: SourceStream, deadline: Deadline) throws {
        self.jobs = jobs
        throw MediaError.trackUnavailable(stream: source.index, reason: "reading pictures into text is being built")
    }

    func consume(_ packet: UnsafeMutablePointer<AVPacket>) throws {}

    func finish(_ end: PassEnd) throws -> [ExtractedTrack] { [] }
}
