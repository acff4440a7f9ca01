import CAV

/// The narrow interface through which the rest of mediafs reaches the media layer.
///
/// Requests and answers are plain values (paths, numbers, `Codable` structs), so that an
/// implementation could run the work in a separate worker process.
public protocol MediaService: Sendable {
    /// Probes the file at `path` (of `size` bytes).
    /// - Throws: `MediaError`.
    func probe(path: String, size: Int64) throws -> MediaInfo

    /// Makes one thumbnail of `file`: the frame `request` asks for, scaled to its size, as a file
    /// in its format of exactly `ImageEncoder.encodedSize(format:width:height:)` bytes. Safe to
    /// call from many threads.
    /// - Throws: `MediaError`: `.noVideoStream`, `.noFrame` (past the end, or past where a
    ///   truncated stream stops), `.damaged`, `.timedOut`, `.imageFailed`, `.notMedia`, `.library`.
    func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail

    /// Every chapter of the file at `path` (of `size` bytes): all editions, every title in every
    /// language, flags and per-chapter artwork references. An empty list for a file without
    /// chapters. Matroska/WebM and QuickTime/MP4 are read by mediafs itself (libavformat keeps
    /// one title per chapter); other formats through libavformat.
    /// - Throws: `MediaError`: `.damaged` for a broken chapter structure, `.notMedia`, `.io`.
    func chapters(path: String, size: Int64) throws -> ChapterList

    /// The bytes of the file's own image for chapter `index` (0-based, in
    /// `chapters(path:size:).defaultEdition.chapters`): a sample of an MP4/QuickTime chapter image
    /// track, JPEG (`mjpeg`) or PNG (`png`), as stored. Nil when the chapter has no image of its own.
    /// - Throws: `MediaError`.
    func chapterImage(path: String, size: Int64, index: Int) throws -> ChapterImage?

    /// Makes the files of `plan` (see `TrackPlan(info:)`) from the file at `path` (of `size`
    /// bytes) in one pass over it, as `<folder>/<group>/<name>`. Each file is written under a
    /// temporary name and renamed when complete; the output is bit-exact, so the same source gives
    /// the same bytes (and size) every time.
    ///
    /// A damaged file gives the tracks that could be made, whole (up to the damage; see
    /// `ExtractedTrack.cutShort`), and a failure for the others. Past `timeout` seconds (opening
    /// included), every track not yet complete fails with `MediaError.timedOut`.
    /// - Returns: one result per entry of `plan`, in its order.
    /// - Throws: `MediaError` only when nothing can be done: the file cannot be opened (`.notMedia`,
    ///   `.timedOut`), is not of `size` bytes (`.sourceChanged`), or `folder` cannot be written (`.output`).
    func extractTracks(path: String, size: Int64, plan: TrackPlan, into folder: String, timeout: Double) throws -> [TrackResult]

    /// The file's cover picture as stored (the `attached_pic` of `MediaInfo.coverStream`: MP4
    /// `covr`, a Matroska image attachment, ID3 APIC, FLAC PICTURE), read from the header without
    /// decoding. Nil when the file has none. Its `bytes` are the attached picture as
    /// `ffmpeg -i F -map 0:v:N -c copy -f image2` writes it, to serve as they are where
    /// `CoverArt.format` is the format wanted.
    /// - Throws: `MediaError`: `.notMedia`, `.timedOut`.
    func coverArt(path: String, size: Int64) throws -> CoverArt?

    /// `bytes`, one picture encoded with `codec` (FFmpeg's codec name: `mjpeg`, `png`, …), decoded
    /// and written in `format` at exactly `width` × `height` pixels (scaled if the picture has
    /// another size) and `ImageEncoder.encodedSize(format:width:height:)` bytes. For chapter
    /// images and covers wanted in another format than the one stored (a stored picture already
    /// in the format wanted is served as it is: `CoverArt.format`, `ChapterImage.format`);
    /// `ImageFormat.dimensions(of:)` gives a stored JPEG's or PNG's own size without decoding.
    /// - Throws: `MediaError`: `.unsupported` (no decoder), `.damaged`, `.imageFailed`.
    func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8]
}

/// Which version of which file: work kept for a file (an open decoder, say) is reused only for the
/// same path, size and modification time.
public struct MediaFile: Codable, Sendable, Hashable {
    public var path: String
    public var size: Int64
    public var modificationNanoseconds: Int64

    public init(path: String, size: Int64, modificationNanoseconds: Int64) {
        self.path = path
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
    }
}

/// Does the media work in this process.
public struct LocalMediaService: MediaService {
    /// Seconds a probe may take before it is interrupted.
    public var probeTimeout: Double
    /// The bounds on each thumbnail.
    public var thumbnailLimits: ThumbnailLimits { thumbnails.limits }
    /// Shared by copies of this value: the decode sessions kept open between thumbnails.
    let thumbnails: ThumbnailMaker
    /// Shared by copies of this value: the files its probes opened, kept a few seconds for the
    /// track pass or first thumbnail that usually follows, which then need not open them again.
    let probed: ProbedInputs

    /// Also silences libav*'s own messages on stderr: each failure reaches the log once, as a
    /// `MediaError` in the caller's log line naming the file.
    /// - Parameters:
    ///   - decodeSessions: how many idle decode sessions (an open file and decoder each) are kept
    ///     for frames asked for in time order; two per processor by default.
    ///   - decodeSessionLifetime: seconds an idle decode session is kept; 30 by default.
    ///   - idleDecodeBytes: bytes (by `DecodeMemory`'s estimate) the idle sessions' decoders may
    ///     keep; past it the least recently used free theirs (`DecodeSessionPool.defaultIdleBudget`).
    ///   - busyDecodeBytes: bytes the decoders of the requests running at once may take; past it a
    ///     request waits for another to finish (`DecodeSessionPool.defaultBusyBudget`).
    public init(probeTimeout: Double = 20, thumbnailLimits: ThumbnailLimits = ThumbnailLimits(),
                decodeSessions: Int? = nil, decodeSessionLifetime: Double? = nil,
                idleDecodeBytes: Int? = nil, busyDecodeBytes: Int? = nil) {
        self.probeTimeout = probeTimeout
        self.probed = ProbedInputs()
        self.thumbnails = ThumbnailMaker(limits: thumbnailLimits,
                                         sessionCapacity: decodeSessions ?? DecodeSessionPool.defaultCapacity,
                                         sessionLifetime: decodeSessionLifetime ?? DecodeSessionPool.defaultIdleLifetime,
                                         idleBudget: idleDecodeBytes ?? DecodeSessionPool.defaultIdleBudget,
                                         busyBudget: busyDecodeBytes ?? DecodeSessionPool.defaultBusyBudget,
                                         probed: probed)
        av_log_set_level(AV_LOG_FATAL)
    }

    public func probe(path: String, size: Int64) throws -> MediaInfo {
        try Prober.probe(path: path, size: size, timeout: probeTimeout, keepingIn: probed)
    }

    /// Decodes the frame in this process, bounded by `thumbnailLimits`. Requests for later times
    /// of the same file and stream continue the decode of earlier ones where that is cheaper
    /// than seeking, so a series in time order decodes each frame about once.
    public func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
        try thumbnails.make(file: file, request: request)
    }

    /// Closes the decode sessions and the probed file kept for the file at `path` (say, when it
    /// was removed).
    public func closeSessions(path: String) {
        thumbnails.pool.close(path: path)
        probed.forget(path: path)
    }

    public func chapters(path: String, size: Int64) throws -> ChapterList {
        try ChapterReader.read(path: path, size: size, timeout: probeTimeout)
    }

    public func chapterImage(path: String, size: Int64, index: Int) throws -> ChapterImage? {
        try ChapterReader.image(path: path, size: size, index: index, timeout: probeTimeout)
    }

    public func extractTracks(path: String, size: Int64, plan: TrackPlan, into folder: String, timeout: Double) throws -> [TrackResult] {
        try TrackExtractor(path: path, size: size, folder: folder, timeout: timeout, probed: probed).run(plan)
    }

    public func coverArt(path: String, size: Int64) throws -> CoverArt? {
        try CoverArtReader.read(path: path, timeout: probeTimeout)
    }

    public func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        try StillImage.convert(bytes: bytes, codec: codec, width: width, height: height, format: format)
    }
}
