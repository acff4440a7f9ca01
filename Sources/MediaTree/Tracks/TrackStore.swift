import Foundation
import Glibc
import Logging
import MediaKit
import Synchronization

/// Extracted tracks: made by one pass per file version and part, on a pool of their own, kept on
/// disk in the cache folder and remembered in memory.
///
/// A request is answered from memory, else from a folder an earlier pass (in this mount or an
/// earlier one) completed, else by a new pass, which everyone asking for the same key meanwhile
/// shares. No asker's thread waits for a pass: completions run on the pool's thread that did it.
///
/// On disk: `<cache>/tracks/<key>/<group>/<name>` and `<cache>/tracks/<key>/manifest.json`,
/// where `<key>` (32 hex digits) hashes the source's identity (device, inode, size, modification
/// time in ns) and the part of the plan. Nothing here evicts: the folder is where the bounded disk
/// cache (issue #6) will manage them.
final class TrackStore: Sendable {
    typealias Completion = @Sendable (TrackSet) -> Void

    private let pool: WorkerPool
    /// Sets by key; small (names and sizes), so bounded by count.
    private let kept = MemoryCache<TrackSetKey, TrackSet>(capacity: 10_000)
    private let pending = Mutex<[TrackSetKey: [Completion]]>([:])
    private let folder: CacheRoot
    let statistics: TreeStatistics

    init(settings: TreeSettings, logger: Logger, statistics: TreeStatistics) {
        pool = WorkerPool(name: "mediafs-tracks", threads: settings.trackThreads)
        folder = CacheRoot(configured: settings.cacheDirectory, logger: logger)
        self.statistics = statistics
    }

    /// Calls `completion` with the set for `key`: remembered, left on disk by an earlier pass,
    /// under way, or made now by `pass` on the pool (given the folder to write into).
    /// - Parameters:
    ///   - plan: the entries of this pass (`key.part(of:)` the file's plan).
    ///   - skipMemory: do not trust the remembered set (a file it names was found missing).
    func request(_ key: TrackSetKey, plan: TrackPlan, sourcePath: String, skipMemory: Bool = false,
                 pass: @escaping @Sendable (_ folder: String) -> TrackSet, completion: @escaping Completion) {
        if !skipMemory, let set = kept.value(for: key), set.isFresh { return completion(set) }
        let joined = pending.withLock { waiting -> Bool in
            guard waiting[key] != nil else { return false }
            waiting[key]!.append(completion)
            return true
        }
        if joined { return }
        // A folder completed earlier: a small JSON file and a stat per track, on the caller's thread.
        if let set = loadFromDisk(key, plan: plan) { return completion(set) }
        let isFirst = pending.withLock { waiting -> Bool in
            if waiting[key] != nil {
                waiting[key]!.append(completion)
                return false
            }
            waiting[key] = [completion]
            return true
        }
        guard isFirst else { return }
        pool.submit { [self] in
            // Completed meanwhile by a pass that ended between our checks and our registration.
            let set: TrackSet
            if let loaded = loadFromDisk(key, plan: plan) {
                set = loaded
            } else {
                do {
                    let target = try folder.folder(for: key, plan: plan)
                    unlink(target + "/" + TrackManifest.fileName)
                    set = pass(target)
                    if !set.isTransient {
                        try? TrackManifest(source: .init(path: sourcePath, identity: key.identity), plan: plan, set: set)
                            .write(folder: target)
                    }
                } catch {
                    set = .failed(plan, reason: "the cache folder cannot be used: \(error)")
                }
                kept.insert(set, cost: 1, for: key)
            }
            let waiters = pending.withLock { $0.removeValue(forKey: key) ?? [] }
            for waiter in waiters { waiter(set) }
        }
    }

    /// Passes queued or running.
    var inFlight: Int { pending.withLock { $0.count } }

    /// Removes the private folder, if the store had to make one (at unmount).
    func close() { folder.close() }

    /// The folder holding the track folders (made on first use).
    /// - Throws: `TreeError.io` when no folder can be made.
    func root() throws -> String { try folder.root() }

    private func loadFromDisk(_ key: TrackSetKey, plan: TrackPlan) -> TrackSet? {
        guard let target = try? folder.folder(for: key, plan: plan, create: false),
              let set = TrackManifest.load(folder: target, identity: key.identity, plan: plan) else { return nil }
        TreeStatistics.count(statistics.trackSetsReused)
        kept.insert(set, cost: 1, for: key)
        return set
    }
}
