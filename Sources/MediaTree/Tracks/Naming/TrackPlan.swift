import MediaKit

/// The files that a media file's alternative tracks become, by group, as AVFoundation's media
/// selection groups: `audible` (audio), `legible` (subtitles), `visual` (alternative video).
///
/// Made from the probe alone (`TrackPlan(info:)`), so listing never touches the media; the same
/// probe always gives the same plan. The plan is the tree's: MediaKit knows no folder of the mount
/// and makes whatever `TrackJob`s it is given (`TrackPlan.jobs(into:)`, `extractTracks(path:size:plan:into:timeout:reading:)`).
public struct TrackPlan: Codable, Sendable, Equatable {
    /// Every entry, ordered by group, then stream index, then output (`.srt`, `.vtt`, `.ass`).
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// A media selection group: the folder an entry is listed in; and the server layout's sidecar
    /// subtitles, which a plan of their own holds (`TrackPlan(sidecarsOf:)`), listed beside the film.
    public enum Group: String, Codable, Sendable, CaseIterable {
        case audible, legible, visual, sidecars
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
