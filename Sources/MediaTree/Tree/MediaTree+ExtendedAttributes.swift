import Foundation
import MediaKit

/// Extended attributes (`getfattr -d`): what a thumbnail shows, what chapter an image is, and the
/// mount's counters on its root.
extension MediaTree {
    /// The answer for an attribute called `name` that holds for every node, nil when it depends on
    /// the node (all of mediafs's are `user.mediafs.*`).
    ///
    /// Other `user.` names are simply not there. Namespaces the tree keeps nothing in are not
    /// supported at all: `ls -l` asks each file for `security.selinux` and its ACL, and GNU ls
    /// stops asking on a device that answers EOPNOTSUPP, which saves it two requests per entry.
    public static func attributeErrorForAnyNode(named name: String) -> TreeError? {
        if name.hasPrefix("user.mediafs.") { return nil }
        return name.hasPrefix("user.") ? .noAttribute : .unsupportedNamespace
    }

    /// `user.mediafs.stats`: the work done since mount, as one line of JSON, ending with `extra`
    /// (what the caller counts).
    public func statisticsDocument(adding extra: [(String, Int)] = []) -> String {
        let cache = made.memory.statistics
        var fields: [(String, Int)] = [
            ("probes", statistics.probes.load(ordering: .relaxed)),
            ("probes_from_database", statistics.probesFromDatabase.load(ordering: .relaxed)),
            ("probe_fetches", statistics.probeFetches.load(ordering: .relaxed)),
            ("thumbnail_name_parses", statistics.thumbnailNameParses.load(ordering: .relaxed)),
            ("chapter_lists_read", statistics.chapterListsRead.load(ordering: .relaxed)),
        ]
        for kind in statistics.madeKinds {
            fields += statistics.counters(of: kind)?.fields(of: kind) ?? []
        }
        fields += [
            ("memory_cache_entries", cache.entries),
            ("memory_cache_bytes", cache.cost),
            ("memory_cache_hits", cache.hits),
            ("memory_cache_misses", cache.misses),
            ("tracks_made", statistics.tracksMade.load(ordering: .relaxed)),
            ("track_failures", statistics.trackFailures.load(ordering: .relaxed)),
            ("track_files_damaged", statistics.trackFilesDamaged.load(ordering: .relaxed)),
            ("scene_analyses", statistics.sceneAnalyses.load(ordering: .relaxed)),
            ("audio_fingerprints", statistics.audioFingerprints.load(ordering: .relaxed)),
            ("season_comparisons", statistics.seasonComparisons.load(ordering: .relaxed)),
            ("analyses_landed", statistics.analysesLanded.load(ordering: .relaxed)),
            ("analyses_waiting", analysisQueue.waiting),
        ] + extra
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
