import Glibc
import MediaKit
import SystemPackage

/// The source as the tree sees it: stats, probes, and which node a source entry is.
extension MediaTree {
    /// The stat of the source entry at `path`, or nil where there is nothing to show.
    func sourceStat(_ path: SourcePath) -> SourceStat? {
        SourceStat.read(absolute(path), root: resolvedRoot)
    }

    /// The stat of the source entry `version` was made from, as it is now (its path is made once).
    func sourceStat(of version: MediaVersion) -> SourceStat? {
        SourceStat.read(version.shownAs, root: resolvedRoot)
    }

    /// The node the source entry at `path` is now (a folder, a media folder or a plain file), listed
    /// in the folder `parent` as `path.lastName`; nil where there is nothing to show. Probes a
    /// media-named file (once per version), after it has settled (`settledStat`); in the server
    /// layout every file is a plain file (its entries beside it probe it: `serverFilm`).
    /// - Throws: `Pending` where another thread probes the file; `AtOnce.GaveUp`.
    func sourceNode(at path: SourcePath, parent: NodeKey) throws -> (any TreeNode)? {
        let placement = Placement(parent: parent, name: path.lastName)
        guard let stat = sourceStat(path) else { return nil }
        if stat.isDirectory { return SourceFolder(path: path, placement: placement) }
        // The server layout shows every file as itself, films too: no probe for the file itself.
        guard MediaNames.isCandidate(path.lastName), settings.layout != .server else {
            return PlainFile(path: path, stat: stat, placement: placement)
        }
        guard let settled = settledStat(path, first: stat) else { return nil }
        if settled.isDirectory { return SourceFolder(path: path, placement: placement) }
        if settled.identity.size > 0, let version = try mediaVersion(at: path, stat: settled) {
            return MediaFolder(version: version, placement: placement)
        }
        return PlainFile(path: path, stat: settled, placement: placement)
    }

    /// The version of the media file at `path` with `stat`, or nil where it is not shown as media
    /// (it cannot be probed, or holds nothing to browse).
    /// - Throws: `Pending`, `AtOnce.GaveUp` (`facts(at:stat:)`).
    func mediaVersion(at path: SourcePath, stat: SourceStat) throws -> MediaVersion? {
        guard let facts = try facts(at: path, stat: stat), facts.info.isBrowsable else { return nil }
        return MediaVersion(path: path, stat: stat, facts: facts, shownAs: absolute(path))
    }

    /// The version of a media file as the source is now: `known` itself when it has not changed,
    /// a new version with the same record when only its owner, group or mode did or an analysis
    /// landed in its record (`MediaVersion.analysisLanded`), else the new
    /// version (probed).
    /// - Throws: `TreeError.notFound` where the file is gone or no longer shown as media; `Pending`,
    ///   `AtOnce.GaveUp`.
    func currentVersion(of known: MediaVersion) throws -> MediaVersion {
        guard let stat = sourceStat(known.path) else { throw TreeError.notFound }
        if stat.isSameVersion(as: known.stat) && !known.analysisLanded { return known }
        if stat.identity == known.identity {
            return MediaVersion(path: known.path, stat: stat, facts: known.facts, shownAs: known.shownAs)
        }
        guard !stat.isDirectory, let settled = settledStat(known.path, first: stat), !settled.isDirectory,
              settled.identity.size > 0, let version = try mediaVersion(at: known.path, stat: settled) else { throw TreeError.notFound }
        return version
    }

    /// The record of the version of the source file at `path` with `stat` (`VersionFacts`): kept
    /// in memory, else read from the probe database, else made by probing the file; once per
    /// version, however many ask. Nil where the file cannot be probed (logged): a failure the same
    /// bytes give again is kept (in memory and the database), one that may pass (a timeout, a read
    /// that failed, a file changing under the probe) is tried again at the next request.
    /// - Throws: `Pending` where another thread is making the record; `AtOnce.GaveUp`.
    func facts(at path: SourcePath, stat: SourceStat) throws -> VersionFacts? {
        TreeStatistics.count(statistics.probeFetches)
        return try Pending.nilWhereFailing { try records.record(of: stat.identity) { try makeRecord(path, stat: stat) } }
    }

    /// The record of the file at `path` with `stat`: from the probe database (with the chapters and
    /// listing facts kept with its probe), else probed now; and what it costs in memory.
    private func makeRecord(_ path: SourcePath, stat: SourceStat) throws -> (probed: VersionRecords.Probed, bytes: Int) {
        let shownAs = absolute(path)
        let identity = stat.identity
        let stored = probeDatabase?.stored(identity, listingKind: listingFactsKind) ?? ProbeDatabase.Stored()
        func record(_ info: MediaInfo) -> (probed: VersionRecords.Probed, bytes: Int) {
            let chapters = stored.chapters.map { ChapterListing(list: $0, preferred: settings.preferredLanguages) }
            let facts = VersionFacts(identity: identity, info: info, listing: ListingFacts(stored.listing ?? .init()),
                                     chapters: chapters, analysis: stored.analysis, audio: stored.audio)
            analysisQueue.consider(path, identity: identity)
            return (.success(facts), VersionFacts.estimatedBytes(info: info, storedBytes: stored.probeBytes,
                                                                 analysis: stored.analysis, audio: stored.audio))
        }
        switch stored.probe {
        case .info(let info):
            TreeStatistics.count(statistics.probesFromDatabase)
            return record(info)
        case .failure(let failure):
            TreeStatistics.count(statistics.probesFromDatabase)
            logger.debug("shown as a plain file: cannot probe \(shownAs) (kept): \(failure)")
            return (.failure(failure), VersionRecords.placeholderBytes)
        case nil:
            break
        }
        do {
            TreeStatistics.count(statistics.probes)
            let info = try media.probe(path: shownAs.filePath, size: identity.size)
            probeDatabase?.store(.info(info), for: identity)
            return record(info)
        } catch {
            if sourceStat(path)?.identity != identity {
                logger.info("\(shownAs) changed while it was probed: probed again at the next request")
                throw MediaError.sourceChanged(reason: "while it was probed")
            }
            logger.notice("shown as a plain file: cannot probe \(shownAs): \(error)")
            guard let failure = error as? MediaError, ProbeDatabase.isLasting(failure) else { throw error }
            probeDatabase?.store(.failure(failure), for: identity)
            return (.failure(failure), VersionRecords.placeholderBytes)
        }
    }

    /// How long a file must have stayed the same before it is probed when it was changed just now
    /// (being written in place: `cp` over it), and how long an empty one is waited for.
    static let settleTime = 0.2
    static let longestSettle = 2.0

    /// `first`, or, for a file modified less than `settleTime` ago (it may be being written), its
    /// stat once it has stayed the same for `settleTime` (at most `longestSettle` seconds are
    /// waited); nil when it went away meanwhile, or where nothing may wait (`AtOnce`). So a
    /// reader racing a copy over a video gets the new version whole, not a probe of half of it.
    func settledStat(_ path: SourcePath, first: SourceStat) -> SourceStat? {
        var current = first
        var waited = 0.0
        while waited < Self.longestSettle {
            let age = Self.now() - current.modificationSeconds
            guard age >= 0, age < Self.settleTime else { return current }
            if AtOnce.givesUp() { return nil }
            let pause = max(0.02, Self.settleTime - age)
            usleep(UInt32(pause * 1e6))
            waited += pause
            guard let next = sourceStat(path) else { return nil }
            current = next
        }
        return current
    }

    /// Seconds since the epoch, as file times count them.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension SourceStat {
    var modificationSeconds: Double { Double(modificationTime.tv_sec) + Double(modificationTime.tv_nsec) / 1e9 }
}
