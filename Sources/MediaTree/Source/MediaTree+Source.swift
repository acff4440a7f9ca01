import Glibc
import MediaKit
import SystemPackage

/// The source as the tree sees it: stats, probes, and which node a source entry is.
extension MediaTree {
    /// Whether a probe failure is one the same bytes give again (kept); a timeout, an I/O error or
    /// a file changing under the probe is tried again at the next request.
    static let isLastingProbeFailure: @Sendable (Error) -> Bool = { error in
        (error as? MediaError).map(ProbeDatabase.isLasting) ?? false
    }

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
    func sourceNode(at path: SourcePath, parent: NodeKey) -> (any TreeNode)? {
        let placement = Placement(parent: parent, name: path.lastName)
        guard let stat = sourceStat(path) else { return nil }
        if stat.isDirectory { return SourceFolder(path: path, placement: placement) }
        // The server layout shows every file as itself, films too: no probe for the file itself.
        guard MediaNames.isCandidate(path.lastName), settings.layout != .server else {
            return PlainFile(path: path, stat: stat, placement: placement)
        }
        guard let settled = settledStat(path, first: stat) else { return nil }
        if settled.isDirectory { return SourceFolder(path: path, placement: placement) }
        if settled.identity.size > 0, let version = mediaVersion(at: path, stat: settled) {
            return MediaFolder(version: version, placement: placement)
        }
        return PlainFile(path: path, stat: settled, placement: placement)
    }

    /// The version of the media file at `path` with `stat`, or nil where it is not shown as media
    /// (it cannot be probed, or holds nothing to browse).
    func mediaVersion(at path: SourcePath, stat: SourceStat) -> MediaVersion? {
        guard let info = try? probe(path, stat: stat), info.isBrowsable else { return nil }
        return MediaVersion(path: path, stat: stat, info: info, shownAs: absolute(path))
    }

    /// The version of a media file as the source is now: `known` itself when it has not changed,
    /// a new version with the same probe when only its owner, group or mode did, else the new
    /// version (probed).
    /// - Throws: `TreeError.notFound` where the file is gone or no longer shown as media.
    func currentVersion(of known: MediaVersion) throws -> MediaVersion {
        guard let stat = sourceStat(known.path) else { throw TreeError.notFound }
        if stat.isSameVersion(as: known.stat) { return known }
        if stat.identity == known.identity {
            return MediaVersion(path: known.path, stat: stat, info: known.info, shownAs: known.shownAs)
        }
        guard !stat.isDirectory, let settled = settledStat(known.path, first: stat), !settled.isDirectory,
              settled.identity.size > 0, let version = mediaVersion(at: known.path, stat: settled) else { throw TreeError.notFound }
        return version
    }

    /// The probe of a source file, made once per version of the file (kept across mounts in the
    /// probe database). A failure of the moment is not kept, nor one while the file changed under
    /// the probe (it is being written): the next request probes again.
    func probe(_ path: SourcePath, stat: SourceStat) throws -> MediaInfo {
        let shownAs = absolute(path)
        TreeStatistics.count(statistics.probeFetches)
        return try probes.value(for: stat.identity) {
            let kept = probeDatabase?.kept(stat.identity, with: [Self.chapterListKind, listingFactsKind])
            switch kept?.kept {
            case .info(let info):
                TreeStatistics.count(statistics.probesFromDatabase)
                seedListing(of: stat.identity, from: kept?.values ?? [:])
                return info
            case .failure(let failure):
                TreeStatistics.count(statistics.probesFromDatabase)
                logger.debug("shown as a plain file: cannot probe \(shownAs) (kept): \(failure)")
                throw failure
            case nil:
                break
            }
            do {
                TreeStatistics.count(statistics.probes)
                let info = try media.probe(path: shownAs.filePath, size: stat.identity.size)
                probeDatabase?.store(.info(info), for: stat.identity)
                return info
            } catch {
                if sourceStat(path)?.identity != stat.identity {
                    logger.info("\(shownAs) changed while it was probed: probed again at the next request")
                    throw MediaError.sourceChanged(reason: "while it was probed")
                }
                logger.notice("shown as a plain file: cannot probe \(shownAs): \(error)")
                if let failure = error as? MediaError, ProbeDatabase.isLasting(failure) {
                    probeDatabase?.store(.failure(failure), for: stat.identity)
                }
                throw error
            }
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
