import Dispatch
import Glibc
import MediaKit
import Synchronization

/// The tracks of a media file: every audio and subtitle stream (and alternative video) as a file
/// of its own.
///
/// Names, groups and order come from the probe (`TrackPlan(info:)`), so listing runs no pass. A
/// track's size is known only once it is extracted: a lookup or `stat` of one runs the file's pass
/// (all its audio and subtitle tracks at once; its alternative video tracks in a pass of their own),
/// shared by everyone asking meanwhile, and the files are kept in the cache folder.
extension MediaTree {
    /// The tracks of `version`, planned once per version.
    func trackPlan(of version: MediaVersion) -> TrackPlan { trackPlan(of: version.facts, at: version.shownAs) }

    /// The tracks of the version of `facts` (at `path`), planned once per version; logs, then,
    /// each picture subtitle stream that cannot be read into text for want of its language's data.
    func trackPlan(of facts: VersionFacts, at path: AbsolutePath) -> TrackPlan {
        facts.tracks.value {
            let plan = TrackPlan(info: facts.info)
            for stream in TrackPlan.unreadable(facts.info) {
                logger.notice("stream \(stream.index) of \(path) is not read into text: no Tesseract data for its language \(stream.language ?? "und") (tesseract-ocr-LANG)")
            }
            return plan
        }
    }

    /// The sizes of the files of `part`'s pass over `version`, by `TrackSet.id`, where the pass is
    /// remembered (`TrackStore.remembered`) or was made in an earlier mount (the listing facts): a
    /// listing then carries them, and `ls -l` needs no lookup per track file. Nil otherwise. A file
    /// that failed has none.
    func rememberedTrackSizes(_ part: TrackSetKey.Part, of version: MediaVersion) -> [String: Int64]? {
        let key = TrackSetKey(identity: version.identity, part: part)
        if let set = tracks.remembered(key) {
            let sizes = set.madeSizes
            if !set.isTransient { learn(of: version.facts) { $0.tracks[key.part.rawValue] = sizes } }
            return sizes
        }
        return version.facts.listing.snapshot.tracks[key.part.rawValue]
    }

    /// The size of `entry`'s file where its pass is remembered or was made in an earlier mount.
    func rememberedTrackSize(_ entry: TrackPlan.Entry, of version: MediaVersion) -> Int64? {
        rememberedTrackSizes(TrackSetKey.Part(entry), of: version)?[TrackSet.id(group: entry.group, name: entry.name)]
    }

    /// The attributes of `node`, the file of the track `entry` of `version` (of `plan`, the
    /// version's `trackPlan` unless given): its size from what a listing knows where its pass is
    /// remembered or was made in an earlier mount (the output is the same at every pass), else
    /// once its pass has run (`trackFile`).
    func trackAttributes(of node: any TreeNode, entry: TrackPlan.Entry, of version: MediaVersion, plan: TrackPlan? = nil,
                         shownAs: String? = nil, reply: @escaping Reply<Attributes>) {
        var attributes = madeFileAttributes(of: node, stat: version.stat)
        if let size = rememberedTrackSize(entry, of: version) {
            attributes.size = size
            return reply(.success(attributes))
        }
        trackFile(entry, of: version, plan: plan, shownAs: shownAs) { [attributes] result in
            reply(result.map { file in
                var sized = attributes
                sized.size = file.size
                return sized
            })
        }
    }

    /// Hands the file of the track `entry` of `version` to `reply`: from memory or the cache
    /// folder at once, else once the pass that makes it is done (run on the tracks pool, shared
    /// with everyone asking for a track of the same pass meanwhile). `TreeError.io` (the file, the
    /// track and why) where the track could not be made.
    /// - Parameters:
    ///   - plan: the plan `entry` is of: the version's `trackPlan` unless given (the server
    ///     layout's sidecars have a plan of their own).
    ///   - shownAs: the file as log lines and errors name it.
    ///
    /// A file read from pictures that failed for good (no forced events) is `TreeError.notFound`:
    /// it is never listed.
    func trackFile(_ entry: TrackPlan.Entry, of version: MediaVersion, plan: TrackPlan? = nil, shownAs: String? = nil,
                   skipMemory: Bool = false, reply: @escaping Reply<CachedTrack>) {
        let key = TrackSetKey(identity: version.identity, entry: entry)
        let shownAs = shownAs ?? "\(version.shownAs)/tracks/" + TrackSet.id(group: entry.group, name: entry.name)
        // A request waiting for the text the background analysis is reading keeps it from pausing
        // for requests (this one among them), as a request waiting for its analysis does.
        let facts = version.facts
        let waits = key.part == .read
        if waits { facts.analysisWaiters.add(1, ordering: .relaxed) }
        trackSet(key, of: facts, at: version.shownAs, plan: key.part(of: plan ?? trackPlan(of: version)),
                 skipMemory: skipMemory) { set in
            if waits { facts.analysisWaiters.subtract(1, ordering: .relaxed) }
            switch set.outcome(group: entry.group, name: entry.name) {
            case .made(let file)?: reply(.success(file))
            case .failed? where key.part == .read && !set.isTransient: reply(.failure(TreeError.notFound))
            case .failed(let reason)?: reply(.failure(TreeError.io(path: shownAs, reason: reason)))
            case nil: reply(.failure(TreeError.io(path: shownAs, reason: "not made")))
            }
        }
    }

    /// Hands the set of `key` (whose entries are `plan`) of the version of `facts` at `path` to
    /// `completion`, as `TrackStore.request` does, and learns its sizes where it is for good.
    /// - Parameters:
    ///   - here: run the pass on this thread (the analysis's) rather than the pool.
    ///   - reading: how a pass reading picture subtitles into text runs: the analysis's request
    ///     where it runs the pass, else every processor (a request waits for it).
    func trackSet(_ key: TrackSetKey, of facts: VersionFacts, at path: AbsolutePath, plan: TrackPlan, skipMemory: Bool = false,
                  here: Bool = false, reading: AnalysisRequest? = nil, completion: @escaping @Sendable (TrackSet) -> Void) {
        let size = facts.identity.size
        let reading = reading ?? AnalysisRequest(threads: settings.generationThreads) { [analysisQueue] in
            try analysisQueue.checkStopping()
        }
        tracks.request(key, plan: plan, sourcePath: path.description, skipMemory: skipMemory, here: here, pass: { [self] folder in
            runPass(path: path, size: size, plan: plan, folder: folder, reading: reading)
        }, completion: { [self] set in
            if !set.isTransient { learn(of: facts) { $0.tracks[key.part.rawValue] = set.madeSizes } }
            completion(set)
        })
    }

    /// Opens a track's file in the cache folder; reads are spliced from it. A file found missing,
    /// of another size (removed from the cache meanwhile) or, at its first open in this mount, with
    /// another checksum than its manifest's (damaged) is made again, once. The set stays out of
    /// eviction while the file is open.
    func openTrack(_ entry: TrackPlan.Entry, of version: MediaVersion, plan: TrackPlan? = nil, shownAs: String? = nil,
                   again: Bool = false, reply: @escaping Reply<any FileContent>) {
        let plan = plan ?? trackPlan(of: version)
        let key = TrackSetKey(identity: version.identity, entry: entry)
        trackFile(entry, of: version, plan: plan, shownAs: shownAs, skipMemory: again) { [self] result in
            switch result {
            case .failure(let error):
                reply(.failure(error))
            case .success(let file):
                let content = try? SourceFileContent(path: AbsolutePath(bytes: Array(file.path.utf8)), version: version.identity)
                var info = Glibc.stat()
                if let content, fstat(content.descriptor, &info) == 0, Int64(info.st_size) == file.size,
                   tracks.check(file, descriptor: content.descriptor, key: key, plan: key.part(of: plan)) {
                    let pin = tracks.pin(file, descriptor: content.descriptor, key: key, plan: key.part(of: plan))
                    return reply(.success(TrackFileContent(file: content, pin: pin)))
                }
                guard !again else {
                    return reply(.failure(TreeError.io(path: file.path, reason: "the cached track is missing, changed or damaged")))
                }
                openTrack(entry, of: version, plan: plan, shownAs: shownAs, again: true, reply: reply)
            }
        }
    }

    // MARK: - The pass

    /// Extracts `plan` from the file at `path` into `folder`, on a thread of the tracks pool. Logs
    /// each track that could not be made (file, track, reason) and each cut short by damage.
    func runPass(path: AbsolutePath, size: Int64, plan: TrackPlan, folder: String,
                 reading: AnalysisRequest = AnalysisRequest()) -> TrackSet {
        let started = ContinuousClock.now
        let results: [TrackPlan.EntryResult]
        do {
            results = try media.extractTracks(path: path.filePath, size: size, plan: plan, into: folder,
                                              timeout: settings.trackTimeout, reading: reading)
        } catch {
            var set = TrackSet.failed(plan, reason: "\(error)")
            set.refusedWrite = (error as? MediaError)?.refusedWrite
            // A refused write is the cache's disk, not the file: the pass runs again elsewhere.
            guard set.refusedWrite == nil else { return set }
            statistics.trackFailures.add(plan.entries.count, ordering: .relaxed)
            logger.warning("cannot extract the tracks of \(path): \(error)")
            return set
        }
        let refusal = results.lazy.compactMap { result -> Int32? in
            if case .failure(let error) = result.outcome { return error.refusedWrite }
            return nil
        }.first
        if let refusal {
            var set = TrackSet.failed(plan, reason: "the disk refused a write: \(String(cString: strerror(refusal)))")
            set.refusedWrite = refusal
            return set
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        logger.info("extracted the tracks of \(path): \(results.filter { $0.track != nil }.count) of \(results.count) files in \((seconds * 1000).rounded() / 1000) s")
        var outcomes: [String: TrackSet.Outcome] = [:]
        var transient = false
        for result in results {
            let id = TrackSet.id(group: result.entry.group, name: result.entry.name)
            switch result.outcome {
            case .success(let track):
                TreeStatistics.count(statistics.tracksMade)
                outcomes[id] = .made(CachedTrack(path: track.path.string, size: track.size, cutShort: track.cutShort))
                if let cut = track.cutShort {
                    logger.notice("\(path)/tracks/\(id) holds what comes before the damage: \(cut)")
                }
            case .failure(let error):
                TreeStatistics.count(statistics.trackFailures)
                logger.warning("cannot make \(path)/tracks/\(id): \(error)")
                outcomes[id] = .failed(reason: "\(error)")
                // The same bytes give the same unavailable track; anything else may go another way.
                if case .trackUnavailable = error {} else { transient = true }
            }
        }
        return TrackSet(outcomes: outcomes, isTransient: transient)
    }
}
