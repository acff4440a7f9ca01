import SystemPackage

/// One file for `MediaService.extractTracks` to make: from which stream, what, and where.
///
/// The caller decides the path; MediaKit knows no folder of the mount. The path's folder must
/// exist: the file is written there under a temporary name (`.partial-XXXXXX`) and renamed to
/// `path` once complete, replacing an older file of that name.
public struct TrackJob: Codable, Sendable, Hashable {
    /// The source stream's index in the container (ffprobe's `index`).
    public var streamIndex: Int
    public var output: TrackOutput
    /// Where the file goes, as the bytes the file system has (a name need not be UTF-8).
    public var path: FilePath
    /// The language code written as the output stream's `language` tag (remuxed outputs; SubRip
    /// and WebVTT files have no such tag), e.g. `eng`, `und`.
    public var language: String

    public init(streamIndex: Int, output: TrackOutput, path: FilePath, language: String) {
        self.streamIndex = streamIndex
        self.output = output
        self.path = path
        self.language = language
    }
}
