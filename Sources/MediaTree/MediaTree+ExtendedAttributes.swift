import Foundation
import MediaKit

/// Extended attributes (`getfattr -d`): what a thumbnail shows, and the mount's counters on its root.
extension MediaTree {
    /// Whether any node may have an attribute called `name` (all of mediafs's are `user.mediafs.*`).
    public static func mayHaveExtendedAttribute(named name: String) -> Bool {
        name.hasPrefix("user.mediafs.")
    }

    /// The attribute names of the node numbered `inode`. Makes no image.
    /// - Throws: `TreeError.notFound`.
    public func extendedAttributeNames(of inode: UInt64) throws -> [String] {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        _ = try validStat(of: node)
        switch node {
        case .thumbnail:
            return ["user.mediafs.time", "user.mediafs.requested", "user.mediafs.keyframe"]
        case .sourceFolder(let rel) where rel.isEmpty:
            return ["user.mediafs.stats"]
        default:
            return []
        }
    }

    /// Hands the value of the attribute `name` of the node numbered `inode` to `completion`. A
    /// thumbnail's `time` and `keyframe` are those of the frame made, so asking for them makes the
    /// image (on the generation pool, as a read would); `requested` needs no image.
    /// Errors: `TreeError.notFound`, `.noAttribute`, `.io`.
    public func extendedAttribute(_ name: String, of inode: UInt64,
                                  completion: @escaping @Sendable (Result<[UInt8], Error>) -> Void) {
        do {
            guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
            let stat = try validStat(of: node)
            guard try extendedAttributeNames(of: inode).contains(name) else { throw TreeError.noAttribute }
            switch node {
            case .sourceFolder:
                completion(.success(Array(statisticsDocument().utf8)))
            case .thumbnail(let rel, let thumbName):
                if name == "user.mediafs.requested" {
                    guard let request = thumbnailRequest(name: thumbName, info: try probe(rel: rel, stat: stat)) else {
                        throw TreeError.notFound
                    }
                    return completion(.success(Array(TimeText.decimalText(request.time).utf8)))
                }
                try thumbnail(rel: rel, name: thumbName, stat: stat) { result in
                    completion(result.map { made in
                        let text = name == "user.mediafs.time" ? TimeText.decimalText(made.frameTime)
                            : (made.isKeyframe ? "true" : "false")
                        return Array(text.utf8)
                    })
                }
            default:
                throw TreeError.noAttribute
            }
        } catch {
            completion(.failure(error))
        }
    }

    /// `user.mediafs.stats`: the work done since mount, as one line of JSON.
    func statisticsDocument() -> String {
        let cache = thumbnails.cache.statistics
        let fields: [(String, Int)] = [
            ("probes", statistics.probes.load(ordering: .relaxed)),
            ("thumbnails_made", statistics.thumbnailsMade.load(ordering: .relaxed)),
            ("thumbnail_failures", statistics.thumbnailFailures.load(ordering: .relaxed)),
            ("thumbnail_cache_entries", cache.entries),
            ("thumbnail_cache_bytes", cache.cost),
            ("thumbnail_cache_hits", cache.hits),
            ("thumbnail_cache_misses", cache.misses),
            ("track_passes", statistics.trackPasses.load(ordering: .relaxed)),
            ("track_sets_reused", statistics.trackSetsReused.load(ordering: .relaxed)),
            ("tracks_made", statistics.tracksMade.load(ordering: .relaxed)),
            ("track_failures", statistics.trackFailures.load(ordering: .relaxed)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
