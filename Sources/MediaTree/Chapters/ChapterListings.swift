import MediaKit
import SystemPackage

/// The chapter list, read once per version of a file, named for the reader's languages.
extension MediaTree {
    /// The chapter listing of `version` (its record's `chapters`; for a file without chapters of
    /// its own, those made from its analysis: `FoundChapters`), or nil when its default edition
    /// lists no chapter (or its chapters cannot be read for good: damaged; logged once per version
    /// of the file). The chapters are read on the first call for a version of the file, when the
    /// media folder itself is listed or looked into; never to list the folder that holds the file.
    /// A list kept in the probe database by an earlier mount came with the probe instead.
    /// - Throws: `TreeError.media` where reading the file failed in a way that may pass (a failing
    ///   disk): nothing is kept, and the media folder's listing fails rather than show it without
    ///   its chapters; `Pending` where another thread reads them.
    func chapterListing(of version: MediaVersion) throws -> ChapterListing? {
        if let own = try ownChapterListing(of: version) { return own }
        guard let analysis = version.analysis else { return nil }
        return version.facts.foundChapters.value(for: version.analysisStamp) {
            let duration = Thumbnails.stream(of: version.info).map { Thumbnails.duration(of: $0, info: version.info) }
                ?? version.info.container.duration ?? 0
            return FoundChapters.list(analysis, duration: duration).flatMap { ChapterListing(list: $0, preferred: settings.preferredLanguages) }
        }
    }

    /// The chapters the file itself lists, as `chapterListing(of:)` says.
    private func ownChapterListing(of version: MediaVersion) throws -> ChapterListing? {
        let shownAs = version.shownAs
        let preferred = settings.preferredLanguages
        let identity = version.identity
        return try version.facts.chapters.value { [media, statistics, logger, probeDatabase] in
            TreeStatistics.count(statistics.chapterListsRead)
            do {
                let list = try media.chapters(path: shownAs.filePath, size: identity.size)
                // Kept with the probe, so a remount lists chapters/ without opening the file.
                probeDatabase?.store(chapters: list, for: identity)
                return ChapterListing(list: list, preferred: preferred)
            } catch let failure as MediaError where failure.mayPass {
                throw TreeError.media(path: "\(shownAs)", failure: failure)
            } catch {
                logger.notice("no chapters shown for \(shownAs): \(error)")
                return nil
            }
        }
    }

    /// The format a chapter's image is listed in: the stored picture's own (its artwork, or the
    /// cover it shows), served byte for byte, where that is JPEG or PNG; else the mount's image format.
    /// - Throws: as `chapterImagePlan(of:entry:format:)`.
    func listedFormat(of entry: ChapterListing.Entry, in version: MediaVersion) throws -> ImageFormat? {
        let wanted = settings.imageFormat
        guard let plan = try chapterImagePlan(of: version, entry: entry, format: wanted) else { return nil }
        if case .converted(_, let codec, _, _, _) = plan, let stored = ImageFormat(codec: codec) {
            return stored
        }
        return wanted
    }
}
