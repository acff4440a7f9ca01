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

    /// The attribute names of the node numbered `inode`. Makes no image.
    /// - Throws: `TreeError.notFound`.
    public func extendedAttributeNames(of inode: UInt64) throws -> [String] {
        guard let node = inodes.node(for: inode) else { throw TreeError.notFound }
        let stat = try validStat(of: node)
        switch node {
        case .thumbnail:
            return ["user.mediafs.time", "user.mediafs.requested", "user.mediafs.keyframe"]
        case .chapterImage:
            let names = Self.chapterAttributes
            // A frame also tells which frame it is, as a thumbnail does (asking makes the image).
            if case .frame? = try picturePlan(of: node, stat: stat) { return names + ["user.mediafs.time"] }
            return names
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
            case .chapterImage(let rel, let imageName):
                if name == "user.mediafs.time" {
                    return try picture(of: node, stat: stat) { result in
                        completion(result.map { Array(TimeText.decimalText($0.frameTime ?? 0).utf8) })
                    }
                }
                let entry = try chapterEntry(rel: rel, name: imageName, stat: stat)
                let value: String
                switch name {
                case "user.mediafs.chapter.start": value = TimeText.decimalText(entry.chapter.start)
                case "user.mediafs.chapter.end": value = TimeText.decimalText(entry.chapter.end)
                case "user.mediafs.chapter.title": value = entry.title?.text ?? ""
                case "user.mediafs.chapter.language": value = entry.title?.language ?? "und"
                default: value = try picturePlan(of: node, stat: stat)?.kind ?? ""
                }
                completion(.success(Array(value.utf8)))
            case .thumbnail(let rel, let thumbName):
                if name == "user.mediafs.requested" {
                    guard let request = thumbnailRequest(name: thumbName, info: try probe(rel: rel, stat: stat)) else {
                        throw TreeError.notFound
                    }
                    return completion(.success(Array(TimeText.decimalText(request.time).utf8)))
                }
                try thumbnail(rel: rel, name: thumbName, stat: stat) { result in
                    completion(result.map { made in
                        let text = name == "user.mediafs.time" ? TimeText.decimalText(made.frameTime ?? 0)
                            : (made.isKeyframe == true ? "true" : "false")
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

    /// What every chapter image carries; none of them needs the image.
    static let chapterAttributes = [
        "user.mediafs.chapter.start", "user.mediafs.chapter.end", "user.mediafs.chapter.title",
        "user.mediafs.chapter.language", "user.mediafs.chapter.image",
    ]

    /// `user.mediafs.stats`: the work done since mount, as one line of JSON.
    func statisticsDocument() -> String {
        let cache = images.cache.statistics
        let fields: [(String, Int)] = [
            ("probes", statistics.probes.load(ordering: .relaxed)),
            ("probes_from_database", statistics.probesFromDatabase.load(ordering: .relaxed)),
            ("thumbnails_made", statistics.thumbnailsMade.load(ordering: .relaxed)),
            ("thumbnails_from_disk", statistics.thumbnailsFromDisk.load(ordering: .relaxed)),
            ("thumbnail_failures", statistics.thumbnailFailures.load(ordering: .relaxed)),
            ("chapter_lists_read", statistics.chapterListsRead.load(ordering: .relaxed)),
            ("chapter_images_made", statistics.chapterImagesMade.load(ordering: .relaxed)),
            ("covers_made", statistics.coversMade.load(ordering: .relaxed)),
            ("pictures_from_disk", statistics.picturesFromDisk.load(ordering: .relaxed)),
            ("chapter_image_failures", statistics.chapterImageFailures.load(ordering: .relaxed)),
            ("thumbnail_cache_entries", cache.entries),
            ("thumbnail_cache_bytes", cache.cost),
            ("thumbnail_cache_hits", cache.hits),
            ("thumbnail_cache_misses", cache.misses),
            ("track_passes", statistics.trackPasses.load(ordering: .relaxed)),
            ("track_sets_reused", statistics.trackSetsReused.load(ordering: .relaxed)),
            ("tracks_made", statistics.tracksMade.load(ordering: .relaxed)),
            ("track_failures", statistics.trackFailures.load(ordering: .relaxed)),
            ("track_files_damaged", statistics.trackFilesDamaged.load(ordering: .relaxed)),
            ("inodes", inodes.count),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
