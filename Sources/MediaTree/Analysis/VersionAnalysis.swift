import MediaKit

/// What the analysis of a version of a media file found (`MediaTree.analyse`): its scenes, for
/// an episode the intro and credits it shares with its season, and the text read from its picture
/// subtitles. A field of its record
/// (`VersionFacts.analysis`) and a column of its row in the probe database, so that a remount
/// never analyses it again.
///
/// What it shows (`info.json`'s scenes and segments, `scenes/`, chapters found for a film without
/// its own, the server layout's `.edl`) belongs to the version as it was when the analysis landed:
/// `stamp` is part of the version's (`MediaVersion.stamp`), so those entries are new files to the
/// kernel once it lands (it is told, as of a source change).
struct VersionAnalysis: Codable, Sendable, Hashable {
    /// Whether its scenes were looked for (an episode's segments may land first, from a
    /// comparison another episode's analysis ran).
    var analysedScenes = false
    /// The hard cuts; nil where the file has no video that moves, or it could not be read for good.
    var scenes: SceneList?
    /// The intro and credits shared with other episodes of its season; empty for a film.
    var segments: [MediaSegment] = []
    /// The episodes its season was compared with (a hash of their identities, `SeasonEpisodes`);
    /// nil where it is no episode or its season has not been compared yet.
    var season: UInt64?
    /// The files of `tracks/legible/` read from pictures that its read pass made, by name (in plan
    /// order); nil until that pass ran (or where the version has none to read), empty where it
    /// made none. What `info.json` shows; the listings go by the pass itself.
    var textRead: [String]?

    /// What it shows a player may skip: the season's intro and credits, and the credits its own
    /// pictures show (text on black, `SceneList.endCredits`) where the season gives none.
    var shownSegments: [MediaSegment] {
        let own = segments.contains { $0.kind == .credits } ? [] : scenes?.endCredits ?? []
        return (segments + own).sorted { $0.start < $1.start }
    }

    /// Whether its scenes were looked for by an analysis that looked for credits on black too;
    /// a version analysed before that is analysed again, once.
    var analysedScenesWithCredits: Bool {
        analysedScenes && (scenes == nil || scenes?.endCredits != nil)
    }

    /// A hash of what the analysis shows (whether scenes were looked for and found, whether the
    /// season was compared, which text was read, and what it found): zero before anything was
    /// analysed.
    var stamp: UInt64 {
        guard analysedScenes || season != nil || textRead != nil else { return 0 }
        return StableHasher.hash { hasher in
            hasher.add(analysedScenes)
            hasher.add(scenes != nil)
            for cut in scenes?.cuts ?? [] { hasher.add(cut.frame) }
            // Only where found, so that the stamps of versions analysed before stay what they were.
            for credits in scenes?.endCredits ?? [] {
                hasher.add(credits.start)
                hasher.add(credits.end)
            }
            hasher.add(season != nil)
            for segment in segments {
                hasher.add(segment.kind.rawValue)
                hasher.add(segment.start)
                hasher.add(segment.end)
            }
            // Only when read, so that the stamps of versions analysed before stay what they were.
            if let textRead {
                hasher.add(textRead.count)
                for name in textRead { hasher.add(name) }
            }
        } | 1
    }

    /// What the probe database keeps of it, and what that costs in a record.
    var estimatedBytes: Int {
        let segmentCount = segments.count + (scenes?.endCredits?.count ?? 0)
        return 64 + 40 * (scenes?.cuts.count ?? 0) + 64 * segmentCount + (textRead ?? []).reduce(0) { $0 + 16 + $1.utf8.count }
    }
}
