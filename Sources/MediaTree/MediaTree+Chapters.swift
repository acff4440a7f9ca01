import MediaKit
import SystemPackage

/// `chapters/`: the chapter list read once per version of a file, named for the reader's languages.
extension MediaTree {
    /// The probe database's kind (and fingerprint) of kept chapter lists.
    static let chapterListKind = "chapters-1"

    /// The chapter folder of the media file at `rel`, or nil when its default edition lists no
    /// chapter (or its chapters cannot be read: logged once per version of the file). The chapters
    /// are read on the first call for a version of the file, when the media folder itself is
    /// listed or looked into; never to list the folder that holds the file. A list kept in the
    /// probe database by an earlier mount is used instead of reading the file.
    func chapterFolder(rel: String, stat: SourceStat) -> ChapterFolder? {
        let path = absolute(rel)
        let preferred = settings.preferredLanguages
        let identity = stat.identity
        return (try? chapterFolders.value(for: identity) { [media, statistics, logger, probeDatabase] in
            // Kept across mounts with the probes, so a remount lists chapters/ without opening the file.
            if let kept = probeDatabase?.value(ChapterList.self, kind: Self.chapterListKind, for: identity) {
                return ChapterFolder(list: kept, preferred: preferred)
            }
            TreeStatistics.count(statistics.chapterListsRead)
            do {
                let list = try media.chapters(path: FilePath(path), size: identity.size)
                probeDatabase?.store(list, kind: Self.chapterListKind, for: identity)
                return ChapterFolder(list: list, preferred: preferred)
            } catch {
                logger.notice("no chapters shown for \(path): \(error)")
                return nil
            }
        }) ?? nil
    }

    /// `chapters.json` or `chapters.txt` of the media file at `rel`.
    /// - Throws: `TreeError.notFound` where the file has no `chapters/` (any more).
    func chapterDocument(_ node: Node, rel: String, stat: SourceStat) throws -> [UInt8] {
        guard let folder = chapterFolder(rel: rel, stat: stat) else { throw TreeError.notFound }
        let isJSON: Bool
        switch node {
        case .chaptersJSON: isJSON = true
        case .chaptersText: isJSON = false
        default: throw TreeError.notFound
        }
        let info = try probe(rel: rel, stat: stat)
        let name = isJSON ? ChapterFolder.jsonName : ChapterFolder.textName
        return try chapterDocuments.value(for: InfoKey(identity: stat.identity, name: name)) {
            guard isJSON else { return ChapterDocuments.ogm(folder) }
            let images = folder.entries.map { entry in
                chapterImagePlan(rel: rel, stat: stat, info: info, entry: entry) == nil ? nil : entry.fileName
            }
            return ChapterDocuments.json(folder, fileName: RelPath.lastComponent(rel),
                                         preferred: settings.preferredLanguages, imageNames: images)
        }
    }

    /// The listed chapter a `chapterImage` node stands for.
    func chapterEntry(rel: String, name: String, stat: SourceStat) throws -> ChapterFolder.Entry {
        guard let entry = chapterFolder(rel: rel, stat: stat)?.entry(named: name) else { throw TreeError.notFound }
        return entry
    }
}
