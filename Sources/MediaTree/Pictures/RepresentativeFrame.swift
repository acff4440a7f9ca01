import MediaKit

/// The picture that stands for a film where one is shown without playing it (a server's backdrop,
/// a folder's face in a file manager): a frame from inside the film, not its black opening seconds.
///
/// The keyframe nearest a third of the way through (where Kodi takes a film's thumbnail: past the
/// titles, well before the credits); where that keyframe is almost black (mean luma below
/// `ChapterFrameTimes.darkLuma`: a fade, a night scene), the first of those nearest 40 %, 50 %,
/// 60 % and 25 % of the duration that is not, else the first. At the display size fitted in
/// 1920 × 1080 (a backdrop's size; never enlarged), as JPEG: its exact size is known from the probe.
struct RepresentativeFrameRecipe: MediaRecipe, Codable {
    /// The same frame size and format at each time to try, in order.
    let requests: [ThumbnailRequest]

    /// Shares of the duration tried, in order.
    static let shares = [1.0 / 3, 0.4, 0.5, 0.6, 0.25]
    static let box = ThumbnailBox.box(width: 1920, height: 1080)

    /// The frame of the film `info` describes; nil without a moving video with a size and a duration.
    init?(info: MediaInfo) {
        guard let stream = Thumbnails.stream(of: info),
              let size = ThumbnailGeometry.outputSize(of: stream, box: Self.box) else { return nil }
        let duration = Thumbnails.duration(of: stream, info: info)
        guard duration > 0 else { return nil }
        let source = info.pictureSource(of: stream)
        requests = Self.shares.map { share in
            ThumbnailRequest(streamIndex: stream.index, time: ChapterFrameTimes.microseconds(duration * share),
                             pick: .nearestKeyframe, width: size.width, height: size.height, format: .jpeg, source: source)
        }
    }

    var kind: MadeKind { .representativeFrames }
    var size: Int { requests[0].encodedSize }

    /// The first frame that is not almost black, else the first made. A time that fails (past the
    /// cut of a truncated file) is passed over; all failing, the first failure is the answer.
    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        var first: Thumbnail?
        var failure: Error?
        for request in requests {
            let made: Thumbnail
            do {
                made = try media.thumbnail(of: file, request: request)
            } catch {
                failure = failure ?? error
                continue
            }
            if made.meanLuma >= ChapterFrameTimes.darkLuma {
                return MadeBytes(bytes: made.bytes, frame: ShownFrame(time: made.frameTime, isKeyframe: made.isKeyframe))
            }
            if first == nil { first = made }
        }
        guard let chosen = first else { throw failure ?? MediaError.noFrame(time: 0, reason: "no time to take the frame at") }
        return MadeBytes(bytes: chosen.bytes, frame: ShownFrame(time: chosen.frameTime, isKeyframe: chosen.isKeyframe))
    }
}

extension MadeKind {
    /// A film's representative frame (`RepresentativeFrameRecipe`).
    static let representativeFrames = MadeKind(name: "representative_frames", revision: 1)
}
