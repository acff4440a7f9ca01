import Dispatch
import Synchronization

/// `MediaService.sharedSegments(of:request:)`: each episode's fingerprints compared with every
/// other's, heads for the intro and tails for the credits; for each episode and kind, the stretch
/// most of its partners share (the longest where they differ), its ends then placed on the
/// samples with one of them (`BoundaryRefiner`).
enum SeasonComparison {
    /// The intro and credits of each of `episodes`, in their order.
    /// - Throws: `MediaError` where a file cannot be read again to place the ends, `.timedOut`.
    static func segments(of episodes: [SeasonEpisode], request: AnalysisRequest) throws -> [[MediaSegment]] {
        let deadline = Deadline(seconds: request.timeout)
        let count = episodes.count
        guard count >= 2 else { return Array(repeating: [], count: count) }
        // runs[kind][i][j]: what episode i shares with episode j, on i's clock.
        var runs: [MediaSegment.Kind: [[SharedRun?]]] = [:]
        for kind in MediaSegment.Kind.allCases {
            var table = Array(repeating: [SharedRun?](repeating: nil, count: count), count: count)
            for i in 0..<count {
                for j in (i + 1)..<count {
                    try request.pause()
                    try deadline.check()
                    let run = match(kind, episodes[i].audio, episodes[j].audio)
                    table[i][j] = run
                    table[j][i] = run?.mirrored
                }
            }
            runs[kind] = table
        }
        request.progress(0.2)
        var chosen: [Choice] = []
        for i in 0..<count {
            for kind in MediaSegment.Kind.allCases {
                guard let (partner, run, sharedWith) = choose(runs[kind]![i]) else { continue }
                chosen.append(Choice(episode: i, kind: kind, partner: partner, run: run, sharedWith: sharedWith))
            }
        }
        let placed = try placeEnds(of: chosen, in: episodes, deadline: deadline, request: request)
        var segments: [[MediaSegment]] = Array(repeating: [], count: count)
        for (choice, placed) in zip(chosen, placed) {
            let duration = episodes[choice.episode].audio.duration
            let start = max(0, placed.start), end = duration > 0 ? min(duration, placed.end) : placed.end
            guard end > start else { continue }
            segments[choice.episode].append(MediaSegment(kind: choice.kind, start: start, end: end, foundBy: .sharedAudio,
                                                         sharedWith: choice.sharedWith))
        }
        return segments
    }

    /// An episode's stretch of one kind, as the fingerprints place it, with the partner whose
    /// samples place its ends.
    private struct Choice: Sendable {
        let episode: Int
        let kind: MediaSegment.Kind
        let partner: Int
        let run: SharedRun
        let sharedWith: Int
    }

    /// The runs of `chosen`, in their order, with their ends placed on the samples. Each placing
    /// reads its own two files, and on its own readers: they run side by side, on as many threads
    /// as `request` has, so that the season's comparison takes a share of the time the episodes'
    /// fingerprints do (one after another, the placings would take as long as one more episode's
    /// fingerprints).
    /// - Throws: the first `MediaError` a placing threw; the others then stop.
    private static func placeEnds(of chosen: [Choice], in episodes: [SeasonEpisode], deadline: Deadline,
                                  request: AnalysisRequest) throws -> [SharedRun] {
        let outcomes = Mutex<[Result<SharedRun, any Error>?]>(Array(repeating: nil, count: chosen.count))
        // The next choice a lane takes, and how many are placed; past a failure, none is taken.
        let progress = Mutex<(next: Int, done: Int, failed: Bool)>((0, 0, false))
        DispatchQueue.concurrentPerform(iterations: max(1, min(request.threads, chosen.count))) { _ in
            while true {
                let taken: Int? = progress.withLock { state in
                    guard !state.failed, state.next < chosen.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index = taken else { return }
                let choice = chosen[index]
                let outcome = Result {
                    try request.pause()
                    try deadline.check()
                    return try refine(choice.run, episodes[choice.episode].file, episodes[choice.partner].file,
                                      deadline: deadline, request: request)
                }
                outcomes.withLock { $0[index] = outcome }
                let done = progress.withLock { state in
                    if case .failure = outcome { state.failed = true }
                    state.done += 1
                    return state.done
                }
                request.progress(0.2 + 0.8 * Double(done) / Double(chosen.count))
            }
        }
        var placed: [SharedRun] = []
        for outcome in outcomes.withLock({ $0 }) {
            // A choice is left untaken only past a failure, which comes first and is thrown.
            guard let outcome else { break }
            placed.append(try outcome.get())
        }
        return placed
    }

    /// The stretch of `kind` two episodes share, on the first's clock.
    static func match(_ kind: MediaSegment.Kind, _ a: EpisodeAudio, _ b: EpisodeAudio) -> SharedRun? {
        switch kind {
        case .intro: FingerprintMatcher.longestRun(a.head, b.head, lasting: SegmentWindows.intro)
        case .credits: FingerprintMatcher.longestRun(a.tail, b.tail, lasting: SegmentWindows.shortestCredits...(.infinity))
        }
    }

    /// Of the runs an episode shares with each other one, the one most others agree with (the
    /// longest of those), with its partner and how many share it.
    static func choose(_ runs: [SharedRun?]) -> (partner: Int, run: SharedRun, sharedWith: Int)? {
        var best: (partner: Int, run: SharedRun, sharedWith: Int)?
        for (partner, run) in runs.enumerated() {
            guard let run else { continue }
            let agreeing = runs.filter { $0.map(run.agrees) ?? false }.count
            if let chosen = best, (chosen.sharedWith, chosen.run.seconds) >= (agreeing, run.seconds) { continue }
            best = (partner, run, agreeing)
        }
        return best
    }

    /// `run` of `file` with its ends placed on the samples against `partner`.
    private static func refine(_ run: SharedRun, _ file: MediaFile, _ partner: MediaFile,
                               deadline: Deadline, request: AnalysisRequest) throws -> SharedRun {
        guard let first = try AudioReader(file: file, deadline: deadline, pause: request.pause),
              let second = try AudioReader(file: partner, deadline: deadline, pause: request.pause) else { return run }
        return try BoundaryRefiner(first, second).refine(run)
    }
}
