import MediaKit
import Synchronization

/// The records of the versions of media files the mount knows (`VersionFacts`), in one cache
/// bounded in bytes (`TreeSettings.versionFactsBytes`, counted in the daemon's memory bound), the
/// least recently used dropped first: a version asked for again after its record was dropped
/// gets it again from the probe database (or by probing the file).
///
/// A record is made once however many ask (`Once`): by the first asker, from the probe database or
/// by probing the file. A failure the same bytes would give again (the file is not media, or
/// damaged) is kept like a record; one that may pass (a read that failed, a timeout) is not.
final class VersionRecords: Sendable {
    typealias Probed = Result<VersionFacts, MediaError>

    private let cells: MemoryCache<FileIdentity, Once<Probed>>
    /// Held while a cell is found or added, so that two askers find the same one.
    private let adding = Mutex(())
    /// What a cell costs while its record is being made, and a failure's.
    static let placeholderBytes = 256

    init(capacity: Int) {
        cells = MemoryCache(capacity: capacity)
    }

    /// The record of `identity`: kept, else made by `make` on this thread (it probes, or reads what
    /// the probe database kept); the failure of a file that cannot be probed for good.
    /// - Throws: the failure made or kept; `Pending` where another thread is making it;
    ///   `AtOnce.GaveUp` where it would be made (or waited for) on a thread that must not wait.
    func record(of identity: FileIdentity, _ make: () throws -> (probed: Probed, bytes: Int)) throws -> VersionFacts {
        let cell = adding.withLock { _ -> Once<Probed> in
            if let kept = cells.value(for: identity) { return kept }
            let cell = Once<Probed>(readsFiles: true)
            cells.insert(cell, cost: Self.placeholderBytes, for: identity)
            return cell
        }
        var bytes: Int?
        let probed = try cell.value {
            let made = try make()
            bytes = made.bytes
            return made.probed
        }
        // Made now: counted at what it costs.
        if let bytes { cells.insert(cell, cost: bytes, for: identity) }
        return try probed.get()
    }

    /// The record of `identity`, where it is kept and made; makes nothing.
    func known(_ identity: FileIdentity) -> VersionFacts? {
        guard case .success(let record)? = cells.value(for: identity)?.known else { return nil }
        return record
    }

    /// Counts the record of `identity` at `bytes` more than before (an analysis landed in it).
    func grow(_ identity: FileIdentity, by bytes: Int) {
        adding.withLock { _ in
            guard let cell = cells.value(for: identity), let cost = cells.cost(of: identity) else { return }
            cells.insert(cell, cost: cost + bytes, for: identity)
        }
    }

    /// What the cache holds: records and their bytes.
    var usage: (entries: Int, bytes: Int) {
        let statistics = cells.statistics
        return (statistics.entries, statistics.cost)
    }
}
