import CAV
import SystemPackage

/// The narrow interface through which the rest of mediafs reaches the media layer.
///
/// Requests and answers are plain values (paths, numbers, `Codable` structs), so that an
/// implementation could run the work in a separate worker process. Paths are `FilePath`s, the
/// bytes the file system has: a file whose name is not UTF-8 is opened by its own name.
public protocol MediaService: Sendable {
    /// Probes the file at `path` (of `size` bytes).
    /// - Throws: `MediaError`.
    func probe(path: FilePath, size: Int64) throws -> MediaInfo

    /// Makes one thumbnail of `file`: the frame `request` asks for, scaled to its size, as a file
    /// in its format of exactly `request.encodedSize` bytes. Safe to
    /// call from many threads.
    /// - Throws: `MediaError`: `.noVideoStream`, `.noFrame` (past the end, or past where a
    ///   truncated stream stops), `.damaged`, `.timedOut`, `.imageFailed`, `.notMedia`, `.library`.
    func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail

    /// Every chapter of the file at `path` (of `size` bytes): all editions, every title in every
    /// language, flags and per-chapter artwork references. An empty list for a file without
    /// chapters. Matroska/WebM and QuickTime/MP4 are read by mediafs itself (libavformat keeps
    /// one title per chapter); other formats through libavformat.
    /// - Throws: `MediaError`: `.damaged` for a broken chapter structure, `.notMedia`, `.io`.
    func chapters(path: FilePath, size: Int64) throws -> ChapterList

    /// The bytes of the file's own image for chapter `index` (0-based, in
    /// `chapters(path:size:).defaultEdition.chapters`): a sample of an MP4/QuickTime chapter image
    /// track, JPEG (`mjpeg`) or PNG (`png`), as stored. Nil when the chapter has no image of its own.
    /// - Throws: `MediaError`.
    func chapterImage(path: FilePath, size: Int64, index: Int) throws -> ChapterImage?

    /// Does `jobs` from the file at `path` (of `size` bytes) in one pass over it: each job's file
    /// is written under a temporary name in the folder of its `path` (which must exist) and
    /// renamed to its `path` when complete. The output is bit-exact, so the same source gives the
    /// same bytes (and size) every time. Which files a film's tracks give, and their names, are the
    /// caller's: MediaKit knows no folder of the mount.
    ///
    /// A damaged file gives the tracks that could be made, whole (up to the damage; see
    /// `ExtractedTrack.cutShort`), and a failure for the others. Past `timeout` seconds (opening
    /// included), every track not yet complete fails with `MediaError.timedOut`. A job whose file
    /// cannot be written fails with `MediaError.output`.
    /// - Returns: one result per job, in their order.
    /// - Throws: `MediaError` only when nothing can be done: the file cannot be opened (`.notMedia`,
    ///   `.timedOut`) or is not of `size` bytes (`.sourceChanged`).
    ///
    /// Picture subtitles are read into text as `reading` says: on its `threads` at once (one keeps
    /// the work on the calling thread, as the background analysis's), pausing at its `pause`
    /// between batches of pictures (where the background yields to requests; a pause that throws
    /// fails the text files with its error).
    func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double, reading: AnalysisRequest) throws -> [TrackResult]

    /// The file's cover picture as stored (the `attached_pic` of `MediaInfo.coverStream`: MP4
    /// `covr`, a Matroska image attachment, ID3 APIC, FLAC PICTURE), read from the header without
    /// decoding. Nil when the file has none. Its `bytes` are the attached picture as
    /// `ffmpeg -i F -map 0:v:N -c copy -f image2` writes it, to serve as they are where
    /// `CoverArt.format` is the format wanted.
    /// - Throws: `MediaError`: `.notMedia`, `.timedOut`.
    func coverArt(path: FilePath, size: Int64) throws -> CoverArt?

    /// `bytes`, one picture encoded with `codec` (FFmpeg's codec name: `mjpeg`, `png`, …), decoded
    /// and written in `format` at exactly `width` × `height` pixels (scaled if the picture has
    /// another size) and `ImageEncoder.encodedSize(format:width:height:source: .unknown)` bytes. For chapter
    /// images and covers wanted in another format than the one stored (a stored picture already
    /// in the format wanted is served as it is: `CoverArt.format`, `ChapterImage.format`);
    /// `ImageFormat.dimensions(of:)` gives a stored JPEG's or PNG's own size without decoding.
    /// - Throws: `MediaError`: `.unsupported` (no decoder), `.damaged`, `.imageFailed`.
    func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8]

    /// Sheet `sheet` (0-based, below `StoryboardLayout(request).sheetCount`) of the storyboard
    /// `request` describes (`StoryboardRequest(info:…)`), in `request.format`, exactly
    /// `StoryboardLayout.encodedSize(sheet:)` bytes: each tile the keyframe nearest the start of
    /// its interval, decoding keyframes only, HDR tone-mapped. The stream's keyframes are found
    /// once per file version (demuxed, not decoded) and kept for its other sheets. Safe to call
    /// from many threads.
    /// - Throws: `MediaError`: `.imageFailed` (no layout, no such sheet, encoding), `.noFrame`
    ///   (no keyframe in the stream), `.noVideoStream`, `.damaged`, `.timedOut`, `.notMedia`,
    ///   `.library`.
    func storyboardSheet(of file: MediaFile, request: StoryboardRequest, sheet: Int) throws -> [UInt8]

    /// The contact sheet `request` describes (`ContactSheetRequest(info:fileName:…)`) in
    /// `format`, exactly `ContactSheetLayout.encodedSize(format:)` bytes: a header, then
    /// columns × rows keyframes spread over the film, blank ones replaced by a later keyframe,
    /// each labelled with its time. Safe to call from many threads.
    /// - Throws: `MediaError`, as `storyboardSheet(of:request:sheet:)`.
    func contactSheet(of file: MediaFile, request: ContactSheetRequest, format: ImageFormat) throws -> [UInt8]

    /// Sheet `sheet` (0-based, below `layout.sheetCount`) of Jellyfin's trickplay `layout`
    /// (`TrickplayLayout(info:…)`): the storyboard's tiles on the full grid, black after the last,
    /// a JPEG of exactly `layout.sheetByteCount(sheet:)` bytes. Safe to call from many threads.
    /// - Throws: `MediaError`, as `storyboardSheet(of:request:sheet:)`.
    func trickplaySheet(of file: MediaFile, layout: TrickplayLayout, sheet: Int) throws -> [UInt8]

    /// Tiles `frames` (within `0..<storyboard.tileCount`) of `storyboard`, each alone as a JPEG of
    /// the tile's size, exactly `storyboard.frameBudget.bytes` bytes: a BIF's images
    /// (`BIFLayout(frames:)`, `BIFLayout.file(images:)`). Safe to call from many threads.
    /// - Throws: `MediaError`, as `storyboardSheet(of:request:sheet:)`.
    func storyboardFrames(of file: MediaFile, storyboard: StoryboardLayout, frames: Range<Int>) throws -> [[UInt8]]

    /// Every hard cut of `file`'s video (its first video stream that moves), each to the frame.
    /// Reads what it needs (the keyframes, the groups of pictures holding a cut) and checks every
    /// read: a fault fails the whole list, never a list with cuts missing.
    /// - Throws: `MediaError`: `.noVideoStream`, `.unreadable`, `.damaged`, `.timedOut`, `.notMedia`.
    func scenes(of file: MediaFile, request: AnalysisRequest) throws -> SceneList

    /// The fingerprints `sharedSegments(of:request:)` compares episodes by, of `file`'s first audio
    /// stream; nil where it has none.
    /// - Throws: `MediaError`, as `scenes(of:request:)`.
    func episodeAudio(of file: MediaFile, request: AnalysisRequest) throws -> EpisodeAudio?

    /// The intro and the credits each of `episodes` (two or more of one season) shares with the
    /// others, per episode in their order (empty where it shares none). May read the files again
    /// near where a shared stretch starts and ends, to place its ends.
    /// - Throws: `MediaError` where a file cannot be read.
    func sharedSegments(of episodes: [SeasonEpisode], request: AnalysisRequest) throws -> [[MediaSegment]]
}

extension MediaService {
    /// `extractTracks(path:size:jobs:timeout:reading:)`, picture subtitles read on this thread.
    public func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double) throws -> [TrackResult] {
        try extractTracks(path: path, size: size, jobs: jobs, timeout: timeout, reading: AnalysisRequest())
    }
}

/// An episode as `MediaService.sharedSegments(of:request:)` compares it: its file and its audio's fingerprints.
public struct SeasonEpisode: Codable, Sendable, Hashable {
    public var file: MediaFile
    public var audio: EpisodeAudio

    public init(file: MediaFile, audio: EpisodeAudio) {
        self.file = file
        self.audio = audio
    }
}

/// Which version of which file: work kept for a file (an open decoder, say) is reused only for the
/// same path, size and modification time.
public struct MediaFile: Codable, Sendable, Hashable {
    public var path: FilePath
    public var size: Int64
    public var modificationNanoseconds: Int64

    public init(path: FilePath, size: Int64, modificationNanoseconds: Int64) {
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
    /// Shared by copies of this value: storyboards and contact sheets, with the keyframe indexes
    /// of the files they were last made of.
    let storyboards: StoryboardMaker

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
    ///   - sheetTimeout: seconds one storyboard sheet or contact sheet may take (the keyframe
    ///     scan of a file, once per version, has as long again); 120 by default.
    public init(probeTimeout: Double = 20, thumbnailLimits: ThumbnailLimits = ThumbnailLimits(),
                decodeSessions: Int? = nil, decodeSessionLifetime: Double? = nil,
                idleDecodeBytes: Int? = nil, busyDecodeBytes: Int? = nil, sheetTimeout: Double = 120) {
        self.probeTimeout = probeTimeout
        self.probed = ProbedInputs()
        self.thumbnails = ThumbnailMaker(limits: thumbnailLimits,
                                         sessionCapacity: decodeSessions ?? DecodeSessionPool.defaultCapacity,
                                         sessionLifetime: decodeSessionLifetime ?? DecodeSessionPool.defaultIdleLifetime,
                                         idleBudget: idleDecodeBytes ?? DecodeSessionPool.defaultIdleBudget,
                                         busyBudget: busyDecodeBytes ?? DecodeSessionPool.defaultBusyBudget,
                                         probed: probed)
        self.storyboards = StoryboardMaker(limits: thumbnailLimits, timeout: sheetTimeout, pool: thumbnails.pool,
                                           probed: probed)
        av_log_set_level(AV_LOG_FATAL)
    }

    public func probe(path: FilePath, size: Int64) throws -> MediaInfo {
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
    public func closeSessions(path: FilePath) {
        thumbnails.pool.close(path: path)
        probed.forget(path: path)
        storyboards.keyframes.forget(path: path)
    }

    public func chapters(path: FilePath, size: Int64) throws -> ChapterList {
        try ChapterReader.read(path: path, size: size, timeout: probeTimeout)
    }

    public func chapterImage(path: FilePath, size: Int64, index: Int) throws -> ChapterImage? {
        try ChapterReader.image(path: path, size: size, index: index, timeout: probeTimeout)
    }

    public func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double,
                              reading: AnalysisRequest) throws -> [TrackResult] {
        try TrackExtractor(path: path, size: size, timeout: timeout, probed: probed, reading: reading).run(jobs)
    }

    public func coverArt(path: FilePath, size: Int64) throws -> CoverArt? {
        try CoverArtReader.read(path: path, timeout: probeTimeout)
    }

    public func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        try StillImage.convert(bytes: bytes, codec: codec, width: width, height: height, format: format)
    }

    public func storyboardSheet(of file: MediaFile, request: StoryboardRequest, sheet: Int) throws -> [UInt8] {
        try storyboards.sheet(of: file, request: request, sheet: sheet)
    }

    public func contactSheet(of file: MediaFile, request: ContactSheetRequest, format: ImageFormat) throws -> [UInt8] {
        try storyboards.contactSheet(of: file, request: request, format: format)
    }

    /// Decodes the keyframes, then only the groups of pictures that may hold a cut
    /// (`SceneDetector`), on `request.threads` decoding threads.
    public func scenes(of file: MediaFile, request: AnalysisRequest) throws -> SceneList {
        try SceneDetector(file: file, request: request, probed: probed, pool: thumbnails.pool).run().0
    }

    /// Decodes the head and tail of the file's first audio stream (`SegmentWindows`) for
    /// Chromaprint, on the calling thread.
    public func episodeAudio(of file: MediaFile, request: AnalysisRequest) throws -> EpisodeAudio? {
        try EpisodeFingerprinter.fingerprints(of: file, request: request)
    }

    /// Compares the fingerprints, then decodes a few seconds of two files around each end found.
    public func sharedSegments(of episodes: [SeasonEpisode], request: AnalysisRequest) throws -> [[MediaSegment]] {
        try SeasonComparison.segments(of: episodes, request: request)
    }
}
