/// The files that a media file's alternative tracks become, by group, as AVFoundation's media
/// selection groups: `audible` (audio), `legible` (subtitles), `visual` (alternative video).
///
/// Made from the probe alone (`TrackPlan(info:)`), so listing never touches the media; the same
/// probe always gives the same plan. Extraction (`MediaService.extractTracks`) makes the files.
public struct TrackPlan: Codable, Sendable, Equatable {
    /// Every entry, ordered by group, then stream index, then output (`.srt`, `.vtt`, `.ass`).
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// A media selection group: the folder an entry is listed in.
    public enum Group: String, Codable, Sendable, CaseIterable {
        case audible, legible, visual
    }

    /// One file: which stream it comes from and how it is made.
    public struct Entry: Codable, Sendable, Equatable, Hashable {
        public var group: Group
        /// The file name in its group's folder; unique within the group, at most 255 bytes of UTF-8.
        public var name: String
        /// The source stream's index in the container (ffprobe's `index`).
        public var streamIndex: Int
        public var output: TrackOutput
        /// The stream's language code as stored, `und` when absent.
        public var language: String

        public init(group: Group, name: String, streamIndex: Int, output: TrackOutput, language: String) {
            self.group = group
            self.name = name
            self.streamIndex = streamIndex
            self.output = output
            self.language = language
        }
    }

    /// The entries of one group, in order.
    public func entries(in group: Group) -> [Entry] {
        entries.filter { $0.group == group }
    }

    /// Whether the file has any track to show (a `tracks/` folder exists only then).
    public var isEmpty: Bool { entries.isEmpty }
}

/// How an entry's file is made from its stream.
public enum TrackOutput: String, Codable, Sendable, CaseIterable {
    /// Audio remuxed into Matroska without re-encoding (`.mka`).
    case audioMatroska
    /// Video remuxed into Matroska without re-encoding (`.mkv`).
    case videoMatroska
    /// Text subtitles decoded and written as SubRip (`.srt`).
    case subtitleSRT
    /// Text subtitles decoded and written as WebVTT (`.vtt`).
    case subtitleWebVTT
    /// ASS/SSA subtitles as they are, header and events (`.ass`).
    case subtitleASS
    /// PGS picture subtitles remuxed as a raw SUP stream (`.sup`).
    case bitmapSUP
    /// Other picture subtitles (VobSub, DVB) remuxed into Matroska (`.mks`).
    case bitmapMatroska

    /// The file name extension, with its dot. Every one is four bytes long.
    public var fileExtension: String {
        switch self {
        case .audioMatroska: return ".mka"
        case .videoMatroska: return ".mkv"
        case .subtitleSRT: return ".srt"
        case .subtitleWebVTT: return ".vtt"
        case .subtitleASS: return ".ass"
        case .bitmapSUP: return ".sup"
        case .bitmapMatroska: return ".mks"
        }
    }

    /// The libavformat muxer of the outputs that are remuxed; nil for the converted subtitles.
    var muxerName: String? {
        switch self {
        case .audioMatroska, .videoMatroska, .bitmapMatroska: return "matroska"
        case .subtitleASS: return "ass"
        case .bitmapSUP: return "sup"
        case .subtitleSRT, .subtitleWebVTT: return nil
        }
    }
}
