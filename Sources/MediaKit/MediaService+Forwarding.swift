import SystemPackage

/// A media service that hands every request to another (`base`) unless it says otherwise: a test's
/// stand-in implements only what it changes (counts probes, fails once), and a capability added to
/// `MediaService` is one method and its implementation here, not one in every stand-in.
public protocol ForwardingMediaService: MediaService {
    var base: any MediaService { get }
}

extension ForwardingMediaService {
    public func probe(path: FilePath, size: Int64) throws -> MediaInfo {
        try base.probe(path: path, size: size)
    }

    public func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
        try base.thumbnail(of: file, request: request)
    }

    public func chapters(path: FilePath, size: Int64) throws -> ChapterList {
        try base.chapters(path: path, size: size)
    }

    public func chapterImage(path: FilePath, size: Int64, index: Int) throws -> ChapterImage? {
        try base.chapterImage(path: path, size: size, index: index)
    }

    public func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double,
                              reading: AnalysisRequest) throws -> [TrackResult] {
        try base.extractTracks(path: path, size: size, jobs: jobs, timeout: timeout, reading: reading)
    }

    public func coverArt(path: FilePath, size: Int64) throws -> CoverArt? {
        try base.coverArt(path: path, size: size)
    }

    public func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        try base.stillImage(bytes: bytes, codec: codec, width: width, height: height, format: format)
    }

    public func storyboardSheet(of file: MediaFile, request: StoryboardRequest, sheet: Int) throws -> [UInt8] {
        try base.storyboardSheet(of: file, request: request, sheet: sheet)
    }

    public func contactSheet(of file: MediaFile, request: ContactSheetRequest, format: ImageFormat) throws -> [UInt8] {
        try base.contactSheet(of: file, request: request, format: format)
    }

    public func trickplaySheet(of file: MediaFile, layout: TrickplayLayout, sheet: Int) throws -> [UInt8] {
        try base.trickplaySheet(of: file, layout: layout, sheet: sheet)
    }

    public func storyboardFrames(of file: MediaFile, storyboard: StoryboardLayout, frames: Range<Int>) throws -> [[UInt8]] {
        try base.storyboardFrames(of: file, storyboard: storyboard, frames: frames)
    }

    public func scenes(of file: MediaFile, request: AnalysisRequest) throws -> SceneList {
        try base.scenes(of: file, request: request)
    }

    public func episodeAudio(of file: MediaFile, request: AnalysisRequest) throws -> EpisodeAudio? {
        try base.episodeAudio(of: file, request: request)
    }

    public func sharedSegments(of episodes: [SeasonEpisode], request: AnalysisRequest) throws -> [[MediaSegment]] {
        try base.sharedSegments(of: episodes, request: request)
    }
}
