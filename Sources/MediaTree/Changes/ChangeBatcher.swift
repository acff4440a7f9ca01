/// Coalesces bursts of source events into batches: a file being written fires an event for every
/// write, and each batch costs the kernel notifications and the tree a look at the file.
///
/// A path is reported once no event came for it for `quiet` seconds, or `longest` seconds after its
/// first event if they keep coming (so a file written for minutes is still reported every
/// `longest` seconds). Times are seconds on any monotonic clock. Not thread-safe: one owner.
struct ChangeBatcher {
    var quiet: Double = 0.25
    var longest: Double = 1.0
    private var pending: [SourcePath: (first: Double, last: Double)] = [:]
    private var everythingSince: Double?

    init(quiet: Double = 0.25, longest: Double = 1.0) {
        self.quiet = quiet
        self.longest = longest
    }

    /// Records an event for `rel` at `now`.
    mutating func note(_ rel: SourcePath, at now: Double) {
        if let seen = pending[rel] {
            pending[rel] = (seen.first, now)
        } else {
            pending[rel] = (now, now)
        }
    }

    /// Records that any path may have changed (events were lost), reported after `quiet` seconds.
    mutating func noteEverything(at now: Double) {
        if everythingSince == nil { everythingSince = now }
    }

    /// When the next batch is due, or nil with nothing pending.
    var nextDue: Double? {
        let paths = pending.values.map { min($0.first + longest, $0.last + quiet) }.min()
        let all = everythingSince.map { $0 + quiet }
        switch (paths, all) {
        case let (p?, a?): return min(p, a)
        case let (p, a): return p ?? a
        }
    }

    /// Takes the paths due at `now` (all of them once everything is due): the batch to report.
    mutating func take(at now: Double) -> SourceChanges {
        if let since = everythingSince, since + quiet <= now {
            everythingSince = nil
            pending = [:]
            return SourceChanges(everything: true)
        }
        var due: Set<SourcePath> = []
        for (rel, seen) in pending where min(seen.first + longest, seen.last + quiet) <= now {
            due.insert(rel)
        }
        for rel in due { pending[rel] = nil }
        return SourceChanges(paths: due)
    }
}
