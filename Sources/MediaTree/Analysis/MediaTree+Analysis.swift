import Foundation
import MediaKit

/// The analysis of versions of media files: their scenes, and the intro and credits a season's
/// episodes share. Run once per version, in the background (`AnalysisQueue`) or when asked
/// (`user.mediafs.analysis`, which `mediafs warm` reads); what it finds lands in the version's
/// record and row (`VersionAnalysis`), and the kernel is told, as of a source change, to ask again
/// for what shows it.
extension MediaTree {
    /// Where an analysis runs: on the background thread (one decoding thread, yielding to
    /// requests) or for a request (every processor).
    enum AnalysisRun: Sendable {
        case background, foreground
    }

    /// Analyses the version at `path` with record `facts` where it has not been: its scenes, the
    /// text read from its picture subtitles (`readText`, on this thread), and for an episode its
    /// audio's fingerprints and the comparison of its season (with the other episodes'
    /// fingerprints; in the foreground, those not made yet are made). Returns what is known now.
    /// - Throws: `MediaError` where a read failed in a way that may pass or the work was stopped:
    ///   nothing of the failed part is kept.
    func analyse(_ path: SourcePath, facts: VersionFacts, run: AnalysisRun) throws -> VersionAnalysis {
        if run == .foreground { facts.analysisWaiters.add(1, ordering: .relaxed) }
        facts.analysing.lock()
        defer {
            facts.analysing.unlock()
            if run == .foreground { facts.analysisWaiters.subtract(1, ordering: .relaxed) }
        }
        if facts.analysis?.analysedScenesWithCredits != true {
            let scenes = try scenes(of: path, facts: facts, run: run)
            land(of: facts, at: path) { analysis in
                analysis.scenes = scenes
                analysis.analysedScenes = true
            }
        }
        if facts.analysis?.textRead == nil, let read = try readText(of: path, facts: facts, run: run) {
            land(of: facts, at: path) { $0.textRead = read }
        }
        if let season = SeasonEpisodes.episodes(beside: path, in: self) {
            try compare(season, for: path, facts: facts, run: run)
        }
        return facts.analysis ?? VersionAnalysis()
    }

    /// Runs the job the background queue gives: the version, if it is still what it was when
    /// queued. What fails is logged and tried again at the next mount (or `warm`).
    func analyseInBackground(_ job: AnalysisQueue.Job) {
        guard let stat = sourceStat(job.path), stat.identity == job.identity,
              let facts = analysedRecord(at: job.path, stat: stat) else { return }
        do {
            _ = try analyse(job.path, facts: facts, run: .background)
        } catch MediaError.cancelled {
            return
        } catch {
            logger.info("analysis of \(absolute(job.path)) failed, to be tried again: \(error)")
        }
    }

    /// The record of the version at `path` with `stat`, for an analysis (on its own thread, never
    /// a FUSE one): where another thread is making it (the probe that queued this analysis, say),
    /// waited for. Nil where the file is not media or cannot be probed.
    private func analysedRecord(at path: SourcePath, stat: SourceStat) -> VersionFacts? {
        while true {
            do {
                return try facts(at: path, stat: stat)
            } catch let pending as Pending {
                let ready = DispatchSemaphore(value: 0)
                pending.whenReady { ready.signal() }
                ready.wait()
            } catch {
                return nil
            }
        }
    }

    /// The request an analysis of the version of `facts` makes of the media service: in the
    /// background, pausing while requests are served, unless one waits for this very analysis.
    func analysisRequest(_ run: AnalysisRun, of facts: VersionFacts) -> AnalysisRequest {
        switch run {
        case .background:
            // A request waiting for this analysis is served by it going on, not by its holding still.
            let awaited: @Sendable () -> Bool = { facts.analysisWaiters.load(ordering: .relaxed) > 0 }
            return AnalysisRequest(threads: 1, yields: true, pause: { [activity, analysisQueue] in
                try activity.waitForQuiet(unless: awaited) { try analysisQueue.checkStopping() }
            }, isBusy: { [activity, analysisQueue] in
                try analysisQueue.checkStopping()
                return activity.isBusy && !awaited()
            })
        case .foreground:
            return AnalysisRequest(threads: settings.generationThreads) { [analysisQueue] in try analysisQueue.checkStopping() }
        }
    }

    /// The hard cuts of the version; nil where it has no video that moves, or where its video
    /// cannot be read for good (damaged: logged, and kept as nothing found).
    private func scenes(of path: SourcePath, facts: VersionFacts, run: AnalysisRun) throws -> SceneList? {
        guard Thumbnails.stream(of: facts.info) != nil else { return nil }
        TreeStatistics.count(statistics.sceneAnalyses)
        do {
            return try media.scenes(of: mediaFile(path, facts.identity), request: analysisRequest(run, of: facts))
        } catch let failure as MediaError where !failure.mayPass {
            logger.notice("no scenes shown for \(absolute(path)): \(failure)")
            return nil
        }
    }

    /// The fingerprints of an episode's audio: kept, or made now (and kept); nil where it has no
    /// audio or it cannot be read for good (kept as `EpisodeAudio.unreadable`: not read again).
    private func audio(of path: SourcePath, facts: VersionFacts, run: AnalysisRun) throws -> EpisodeAudio? {
        if let known = facts.audio.withLock({ $0 }) { return known.isEmpty ? nil : known }
        guard facts.info.streams.contains(where: { $0.kind == .audio }) else { return nil }
        TreeStatistics.count(statistics.audioFingerprints)
        let audio: EpisodeAudio?
        do {
            audio = try media.episodeAudio(of: mediaFile(path, facts.identity), request: analysisRequest(run, of: facts))
        } catch let failure as MediaError where !failure.mayPass {
            logger.notice("no intro or credits looked for in \(absolute(path)): \(failure)")
            audio = .unreadable
        }
        guard let audio else { return nil }
        facts.audio.withLock { $0 = audio }
        probeDatabase?.store(audio: audio, for: facts.identity)
        records.grow(facts.identity, by: 4 * (audio.head.items.count + audio.tail.items.count))
        return audio.isEmpty ? nil : audio
    }

    /// Compares the episodes of `season` (the version at `path` among them), where it was not
    /// compared with these versions of them: each one's segments land in its record. In the
    /// background, an episode whose fingerprints are not made yet leaves the comparison to its
    /// own turn, the season's last.
    private func compare(_ season: [(path: SourcePath, stat: SourceStat)], for path: SourcePath, facts: VersionFacts,
                         run: AnalysisRun) throws {
        let stamp = SeasonEpisodes.stamp(season.map(\.stat.identity))
        guard facts.analysis?.season != stamp else { return }
        // In the background its own first: the season's last episode to be fingerprinted compares
        // it. In the foreground its own with the others', all at once: made alone first, it would
        // leave processors idle.
        if run == .background { _ = try audio(of: path, facts: facts, run: run) }
        var records: [(path: SourcePath, facts: VersionFacts)] = []
        for (episode, stat) in season {
            let isThis = episode == path
            guard let episodeFacts = isThis ? facts : analysedRecord(at: episode, stat: stat) else {
                // No comparison; its own fingerprints are kept all the same, for the next one.
                if run == .foreground { _ = try audio(of: path, facts: facts, run: run) }
                return
            }
            if !isThis, run == .background, episodeFacts.audio.withLock({ $0 }) == nil { return }
            records.append((episode, episodeFacts))
        }
        if run == .foreground {
            try fingerprintAtOnce(records.filter { $0.path == path } + records.filter { $0.path != path })
        }
        // Made by now (or none to make): kept.
        let own = try audio(of: path, facts: facts, run: run)
        var episodes: [(path: SourcePath, facts: VersionFacts, audio: EpisodeAudio)] = []
        for (episode, episodeFacts) in records {
            guard let audio = episode == path ? own : try audio(of: episode, facts: episodeFacts, run: run) else { continue }
            episodes.append((episode, episodeFacts, audio))
        }
        guard episodes.count >= 2 else {
            land(of: facts, at: path) { $0.season = stamp }
            return
        }
        TreeStatistics.count(statistics.seasonComparisons)
        let found = try media.sharedSegments(of: episodes.map { SeasonEpisode(file: mediaFile($0.path, $0.facts.identity), audio: $0.audio) },
                                             request: analysisRequest(run, of: facts))
        for (episode, segments) in zip(episodes, found) {
            land(of: episode.facts, at: episode.path) { analysis in
                analysis.segments = segments
                analysis.season = stamp
            }
        }
        if !episodes.contains(where: { $0.path == path }) { land(of: facts, at: path) { $0.season = stamp } }
    }

    /// Makes the fingerprints of `episodes` that have none, as many at once as there are
    /// processors (an audio decoder takes one): a request waits for them.
    private func fingerprintAtOnce(_ episodes: [(path: SourcePath, facts: VersionFacts)]) throws {
        let missing = episodes.filter { $0.facts.audio.withLock { $0 } == nil }
        let failure = FirstError()
        let lanes = max(1, min(settings.generationThreads, missing.count))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for index in stride(from: lane, to: missing.count, by: lanes) {
                let made = failure.catching { () -> Bool? in
                    _ = try audio(of: missing[index].path, facts: missing[index].facts, run: .foreground)
                    return true
                }
                guard made != nil else { return }
            }
        }
        try failure.rethrow()
    }

    /// Changes what the analysis of the version at `path` found, keeps it and, where what it shows
    /// changed, tells the kernel to ask again for the version's entries.
    private func land(of facts: VersionFacts, at path: SourcePath, _ change: (inout VersionAnalysis) -> Void) {
        let (before, after) = facts.changeAnalysis(change)
        guard after != before else { return }
        probeDatabase?.store(analysis: after, for: facts.identity)
        records.grow(facts.identity, by: after.estimatedBytes - (before?.estimatedBytes ?? 0))
        guard after.stamp != before?.stamp ?? 0 else { return }
        TreeStatistics.count(statistics.analysesLanded)
        changeSink.withLock { $0 }?.sourceChanged(SourceChanges(paths: [path]))
    }

    /// The media file of the version of `identity` at `path`.
    private func mediaFile(_ path: SourcePath, _ identity: FileIdentity) -> MediaFile {
        MediaFile(path: absolute(path).filePath, size: identity.size, modificationNanoseconds: identity.modificationNanoseconds)
    }
}
