import Glibc
import MediaKit
import SystemPackage

extension TrackPlan {
    /// What extraction did for one entry of a plan: its file, or why there is none.
    struct EntryResult: Sendable, Equatable {
        var entry: Entry
        var outcome: Result<ExtractedTrack, MediaError>

        /// The file, when it was made.
        var track: ExtractedTrack? { try? outcome.get() }

        /// Why it was not made, when it was not.
        var error: MediaError? {
            if case .failure(let error) = outcome { return error }
            return nil
        }
    }

    /// The path of an entry's file in a pass's folder: `<folder>/<group>/<name>`.
    static func path(of entry: Entry, in folder: String) -> String {
        "\(folder)/\(entry.group.rawValue)/\(entry.name)"
    }

    /// MediaKit's job for each entry, in order: its stream, output and language, written to
    /// `path(of:in:)`.
    func jobs(into folder: String) -> [TrackJob] {
        entries.map { entry in
            TrackJob(streamIndex: entry.streamIndex, output: entry.output,
                     path: FilePath(Self.path(of: entry, in: folder)), language: entry.language)
        }
    }
}

extension MediaService {
    /// Makes the files of `plan` from the file at `path` (of `size` bytes) in one pass, as
    /// `<folder>/<group>/<name>`: makes the group folders the plan has entries in, then has
    /// MediaKit do the plan's jobs (`extractTracks(path:size:jobs:timeout:)`).
    /// - Returns: one result per entry of `plan`, in its order.
    /// - Throws: `MediaError` only when nothing can be done: a group folder cannot be made
    ///   (`.output`), the file cannot be opened (`.notMedia`, `.timedOut`) or is not of `size`
    ///   bytes (`.sourceChanged`).
    func extractTracks(path: FilePath, size: Int64, plan: TrackPlan, into folder: String,
                       timeout: Double, reading: AnalysisRequest = AnalysisRequest()) throws -> [TrackPlan.EntryResult] {
        for group in TrackPlan.Group.allCases where plan.entries.contains(where: { $0.group == group }) {
            try makeFolders("\(folder)/\(group.rawValue)")
        }
        let results = try extractTracks(path: path, size: size, jobs: plan.jobs(into: folder), timeout: timeout, reading: reading)
        return zip(plan.entries, results).map { TrackPlan.EntryResult(entry: $0, outcome: $1.outcome) }
    }
}

/// Makes `path` and its missing parents, private (`PrivateFolder`).
/// - Throws: `MediaError.output`.
private func makeFolders(_ path: String) throws {
    do {
        try PrivateFolder.make(path)
    } catch CacheError.unwritable(let folder, let reason) {
        throw MediaError.output(path: folder, reason: reason)
    }
}
