import Dispatch
import Glibc
import MediaKit
import Synchronization

/// `tracks/`: every audio and subtitle stream (and alternative video) as a file of its own.
///
/// Names, groups and order come from the probe (`TrackPlan(info:)`), so listing runs no pass. A
/// track's size is known only once it is extracted: a lookup or `stat` of one runs the file's pass
/// (all its audio and subtitle tracks at once; its alternative video tracks in a pass of their own),
/// shared by everyone asking meanwhile, and the files are kept in the cache folder.
extension MediaTree {
    // MARK: - Listing

    /// The entries of `tracks/` (its groups that have entries) or of a group's folder (its tracks,
    /// by stream, those in the reader's best matching language first).
    func trackChildren(of folder: Node, info: MediaInfo, stat: SourceStat) -> [(name: String, node: Node)] {
        let plan = trackPlan(info, stat: stat)
        switch folder {
        case .tracksFolder(let rel):
            return TrackPlan.Group.allCases.filter { !plan.entries(in: $0).isEmpty }
                .map { ($0.rawValue, .trackGroup(rel: rel, group: $0)) }
        case .trackGroup(let rel, let group):
            return TrackOrder.ordered(plan.entries(in: group), preferred: settings.preferredLanguages)
                .map { ($0.name, .track(rel: rel, group: group, name: $0.name)) }
        default:
            return []
        }
    }

    /// The tracks of the source version `stat`, whose probe is `info`: planned once per version.
    func trackPlan(_ info: MediaInfo, stat: SourceStat) -> TrackPlan {
        // Planning cannot fail, so neither can this.
        (try? trackPlans.value(for: stat.identity) { TrackPlan(info: info) }) ?? TrackPlan(info: info)
    }

    /// A group's folder as `list` gives it: names and types only, so that a plain `ls` runs no pass.
    func trackListing(of folder: Node, info: MediaInfo, stat: SourceStat) -> [DirectoryEntry] {
        trackChildren(of: folder, info: info, stat: stat).map {
            DirectoryEntry(name: $0.name, attributes: trackAttributes(of: $0.node, stat: stat, size: 0),
                           nameAndTypeOnly: true)
        }
    }

    /// Whether a node of `tracks/` is there for this probe of its source.
    func trackExists(_ node: Node, info: MediaInfo, stat: SourceStat) -> Bool {
        let plan = trackPlan(info, stat: stat)
        switch node {
        case .tracksFolder: return !plan.isEmpty
        case .trackGroup(_, let group): return !plan.entries(in: group).isEmpty
        case .track(_, let group, let name): return plan.entries.contains { $0.group == group && $0.name == name }
        default: return false
        }
    }

    /// What `stat` reports for a track file of `size` bytes (read-only, the source's owner and times).
    func trackAttributes(of node: Node, stat: SourceStat, size: Int64) -> Attributes {
        var attributes = fileAttributes(of: node, stat: stat)
        attributes.size = size
        return attributes
    }

    // MARK: - Answers that wait for a pass without holding the caller's thread

    /// `lookup(parent:name:)`, with the answer handed to `completion`. A track file whose pass has
    /// not run is answered from the tracks pool once it has; everything else at once, on the
    /// caller's thread (which may probe).
    public func lookup(parent: UInt64, name: String, completion: @escaping @Sendable (Result<Attributes, Error>) -> Void) {
        guard let parentNode = inodes.node(for: parent), case .trackGroup(let rel, let group) = parentNode else {
            return completion(Result { try lookup(parent: parent, name: name) })
        }
        do {
            let stat = try validStat(of: parentNode)
            let node = Node.track(rel: rel, group: group, name: name)
            guard trackExists(node, info: try probe(rel: rel, stat: stat), stat: stat) else { throw TreeError.notFound }
            try trackAttributes(of: node, stat: stat, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// `attributes(of:)`, with the answer handed to `completion`, as `lookup(parent:name:completion:)`.
    public func attributes(of inode: UInt64, completion: @escaping @Sendable (Result<Attributes, Error>) -> Void) {
        guard let node = inodes.node(for: inode), case .track = node else {
            return completion(Result { try attributes(of: inode) })
        }
        do {
            try trackAttributes(of: node, stat: validStat(of: node)) { result in
                // An older number of a replaced file (still open) keeps its own number.
                completion(result.map { var attributes = $0; attributes.inode = inode; return attributes })
            }
        } catch {
            completion(.failure(error))
        }
    }

    private func trackAttributes(of node: Node, stat: SourceStat,
                                 completion: @escaping @Sendable (Result<Attributes, Error>) -> Void) throws {
        guard case .track(let rel, let group, let name) = node else { throw TreeError.notFound }
        try trackFile(rel: rel, group: group, name: name, stat: stat) { [self] result in
            completion(result.map { trackAttributes(of: node, stat: stat, size: $0.size) })
        }
    }

    // MARK: - Files

    /// Hands the file of the track `group/name` of the media file at `rel` to `completion`: from
    /// memory or the cache folder at once, else once the pass that makes it is done (run on the
    /// tracks pool, shared with everyone asking for a track of the same pass meanwhile).
    /// - Throws: `TreeError.notFound` at once where the file has no such track; the completion gets
    ///   `TreeError.io` (the file, the track and why) where the track could not be made.
    func trackFile(rel: String, group: TrackPlan.Group, name: String, stat: SourceStat, skipMemory: Bool = false,
                   completion: @escaping @Sendable (Result<TrackFile, Error>) -> Void) throws {
        let plan = trackPlan(try probe(rel: rel, stat: stat), stat: stat)
        guard plan.entries.contains(where: { $0.group == group && $0.name == name }) else { throw TreeError.notFound }
        let key = TrackSetKey(identity: stat.identity, visual: group == .visual)
        let part = key.part(of: plan)
        let path = absolute(rel)
        let shownAs = path + "/tracks/" + TrackSet.id(group: group, name: name)
        tracks.request(key, plan: part, sourcePath: path, skipMemory: skipMemory, pass: { [self] folder in
            runPass(path: path, size: stat.identity.size, plan: part, folder: folder)
        }, completion: { set in
            switch set.outcome(group: group, name: name) {
            case .made(let file)?: completion(.success(file))
            case .failed(let reason)?: completion(.failure(TreeError.io(path: shownAs, reason: reason)))
            case nil: completion(.failure(TreeError.io(path: shownAs, reason: "not made")))
            }
        })
    }

    /// `trackFile`, waited for: for the tree's blocking calls (`attributes(of:)`, `lookup`), which
    /// FuseBridge does not use for track files.
    func trackFileWaiting(rel: String, group: TrackPlan.Group, name: String, stat: SourceStat) throws -> TrackFile {
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<Result<TrackFile, Error>?>(nil)
        try trackFile(rel: rel, group: group, name: name, stat: stat) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try answer.withLock { $0! }.get()
    }

    /// Opens a track's file in the cache folder; reads are spliced from it. A file found missing,
    /// of another size (removed from the cache meanwhile) or, at its first open in this mount, with
    /// another checksum than its manifest's (damaged) is made again, once. The set stays out of
    /// eviction while the file is open.
    func openTrack(rel: String, group: TrackPlan.Group, name: String, stat: SourceStat, keepsKernelCache: Bool,
                   again: Bool = false, completion: @escaping @Sendable (Result<any FileContent, Error>) -> Void) throws {
        let plan = TrackPlan(info: try probe(rel: rel, stat: stat))
        let key = TrackSetKey(identity: stat.identity, visual: group == .visual)
        try trackFile(rel: rel, group: group, name: name, stat: stat, skipMemory: again) { [self] result in
            switch result {
            case .failure(let error):
                completion(.failure(error))
            case .success(let file):
                let content = try? SourceFileContent(path: file.path, keepsKernelCache: keepsKernelCache)
                var info = Glibc.stat()
                if let content, fstat(content.descriptor, &info) == 0, Int64(info.st_size) == file.size,
                   tracks.check(file, descriptor: content.descriptor, key: key, plan: key.part(of: plan)) {
                    let pin = tracks.pin(key, plan: key.part(of: plan))
                    return completion(.success(TrackFileContent(file: content, pin: pin)))
                }
                guard !again else {
                    return completion(.failure(TreeError.io(path: file.path, reason: "the cached track is missing, changed or damaged")))
                }
                do {
                    try openTrack(rel: rel, group: group, name: name, stat: stat, keepsKernelCache: false,
                                  again: true, completion: completion)
                } catch {
                    completion(.failure(error))
                }
            }
        }
    }

    // MARK: - The pass

    /// Extracts `plan` from the file at `path` into `folder`, on a thread of the tracks pool. Logs
    /// each track that could not be made (file, track, reason) and each cut short by damage.
    func runPass(path: String, size: Int64, plan: TrackPlan, folder: String) -> TrackSet {
        TreeStatistics.count(statistics.trackPasses)
        let started = ContinuousClock.now
        let results: [TrackPlan.EntryResult]
        do {
            results = try media.extractTracks(path: path, size: size, plan: plan, into: folder,
                                              timeout: settings.trackTimeout)
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            logger.info("extracted the tracks of \(path): \(results.filter { $0.track != nil }.count) of \(results.count) files in \((seconds * 1000).rounded() / 1000) s")
        } catch {
            statistics.trackFailures.add(plan.entries.count, ordering: .relaxed)
            logger.warning("cannot extract the tracks of \(path): \(error)")
            return .failed(plan, reason: "\(error)")
        }
        var outcomes: [String: TrackSet.Outcome] = [:]
        var transient = false
        for result in results {
            let id = TrackSet.id(group: result.entry.group, name: result.entry.name)
            switch result.outcome {
            case .success(let track):
                TreeStatistics.count(statistics.tracksMade)
                outcomes[id] = .made(TrackFile(path: track.path.string, size: track.size, cutShort: track.cutShort))
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
