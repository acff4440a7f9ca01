import Dispatch
import Glibc
import MediaKit

/// The text read from a version's picture subtitles, as a step of its analysis: slow (Tesseract
/// reads every picture), so never part of the pass that makes the other tracks, never waited for
/// by a listing, and made ahead by the analysis (in the background, or for `warm`) so that the
/// files are listed once read.
extension MediaTree {
    /// Runs the read pass of the version of `facts` at `path` on this thread, where it has one and
    /// it has not run (in this mount or an earlier one: a set found in the cache folder is used).
    /// - Returns: the names of the files made, in plan order, to land in `VersionAnalysis.textRead`;
    ///   nil where the version has nothing to read.
    /// - Throws: `MediaError.cancelled` when the mount is closing, `MediaError.io` where the pass
    ///   failed in a way that may pass (a read of the source, the disk, a timeout): nothing lands,
    ///   and the next analysis tries again.
    func readText(of path: SourcePath, facts: VersionFacts, run: AnalysisRun) throws -> [String]? {
        let key = TrackSetKey(identity: facts.identity, part: .read)
        let plan = key.part(of: trackPlan(of: facts, at: absolute(path)))
        guard !plan.isEmpty else { return nil }
        try analysisQueue.checkStopping()
        let done = DispatchSemaphore(value: 0)
        let found = Found()
        trackSet(key, of: facts, at: absolute(path), plan: plan, here: true, reading: analysisRequest(run, of: facts)) { set in
            found.set = set
            done.signal()
        }
        done.wait()
        guard let set = found.set, !set.isTransient else {
            throw MediaError.io(function: "reading the picture subtitles", code: found.set?.refusedWrite ?? EIO)
        }
        return plan.entries.compactMap { entry in
            if case .made? = set.outcome(group: entry.group, name: entry.name) { return entry.name }
            return nil
        }
    }
}

/// The set a pass handed over, read once the semaphore it signals is waited for.
private final class Found: @unchecked Sendable {
    var set: TrackSet?
}
