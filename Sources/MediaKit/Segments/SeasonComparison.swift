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
        var segments: [[MediaSegment]] = Array(repeating: [], count: count)
        for i in 0..<count {
            for kind in MediaSegment.Kind.allCases {
                guard let (partner, run, sharedWith) = choose(runs[kind]![i]) else { continue }
                try request.pause()
                try deadline.check()
                let placed = try refine(run, episodes[i].file, episodes[partner].file, deadline: deadline, request: request)
                let duration = episodes[i].audio.duration
                let start = max(0, placed.start), end = duration > 0 ? min(duration, placed.end) : placed.end
                guard end > start else { continue }
                segments[i].append(MediaSegment(kind: kind, start: start, end: end, foundBy: .sharedAudio, sharedWith: sharedWith))
            }
            request.progress(0.2 + 0.8 * Double(i + 1) / Double(count))
        }
        return segments
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
