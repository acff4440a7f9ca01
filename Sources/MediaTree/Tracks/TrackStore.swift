import Foundation
import Glibc
import Logging
import MediaKit
import Synchronization

/// Extracted tracks: made by one pass per file version and part, on a pool of their own, kept on
/// disk in the cache folder (bounded with the other made files, `DiskCache+TrackSets`) and
/// remembered in memory.
///
/// A request goes the way of everything made (`MadeOnPool`): answered from memory, else from a
/// folder an earlier pass (in this mount or an earlier one) completed (`TrackSetShelf`), else by a
/// new pass, which everyone asking for the same key meanwhile shares. No asker's thread waits for a
/// pass: completions run on the pool's thread that did it, as soon as its files are complete; the
/// same thread then checksums them, writes the set's manifest and indexes it, while the askers read.
///
/// On disk: `<tracks>/<name>/<group>/<file>` and `<tracks>/<name>/manifest.json`, where `<name>`
/// (32 hex digits, `CacheRoot.name`) hashes the source's identity and the part of the plan.
///
/// A full cache disk costs caching, never a file: a pass whose writes the cache folder's disk
/// refuses (full, over quota, read-only, failing) runs again in the private folder, as at a mount
/// without a cache folder (`CacheRoot`), and the next pass tries the cache folder again.
final class TrackStore: Sendable {
    typealias Completion = @Sendable (TrackSet) -> Void

    /// Sets by pass; small (names and sizes), so bounded by count.
    private let sets: MadeOnPool<TrackPass, TrackSet>
    private let shelf: TrackSetShelf
    private var folder: CacheRoot { shelf.folder }
    let statistics: TreeStatistics
    private let logger: Logger
    /// Files whose checksum was checked in this mount: path, inode and change time.
    private let verified = Mutex<Set<String>>([])
    static let keepTimeout = 30.0

    init(settings: TreeSettings, diskCache: DiskCache?, logger: Logger, statistics: TreeStatistics) {
        let pool = WorkerPool(name: "mediafs-tracks", threads: settings.trackThreads)
        shelf = TrackSetShelf(folder: CacheRoot(diskCache: diskCache, capacity: settings.diskCacheBytes, logger: logger),
                              logger: logger)
        sets = MadeOnPool(pool: pool, memory: MemoryCache(capacity: 10_000), shelf: shelf, cost: { _ in 1 },
                          isCurrent: { $0.isFresh }, counters: { statistics.counters(of: $0.key.part.madeKind) })
        self.statistics = statistics
        self.logger = logger
    }

    /// Calls `completion` with the set for `key`: remembered, left on disk by an earlier pass,
    /// under way, or made now by `pass` on the pool (given the folder to write into).
    /// - Parameters:
    ///   - plan: the entries of this pass (`key.part(of:)` the file's plan).
    ///   - skipMemory: do not trust the remembered set (a file it names was found missing or damaged).
    ///   - here: run the pass on this thread, not the pool (the analysis's, at its low priority).
    func request(_ key: TrackSetKey, plan: TrackPlan, sourcePath: String, skipMemory: Bool = false, here: Bool = false,
                 pass: @escaping @Sendable (_ folder: String) -> TrackSet, completion: @escaping Completion) {
        sets.request(TrackPass(key: key, plan: plan, sourcePath: sourcePath), skipMemory: skipMemory, here: here, make: { [self] in
            ChurningThreads.prepareThisThread()
            let set = make(key, plan: plan, pass: pass)
            // Counted from before the answer, so an unmount right after it still waits for the set to
            // be kept (`TrackSetShelf.keep`); not during the pass, which an unmount does not wait for.
            shelf.keeping.begin()
            return set
        }, completion: { result in
            completion((try? result.get()) ?? .failed(plan, reason: "no track set"))
        })
    }

    /// The set for `key` where it is remembered (made or found on disk earlier in this mount),
    /// without looking further: nil otherwise.
    func remembered(_ key: TrackSetKey) -> TrackSet? {
        sets.fromMemory(TrackPass(key: key, plan: TrackPlan(entries: []), sourcePath: ""))
    }

    /// Passes queued or running.
    var inFlight: Int { sets.inFlight }

    /// Waits (at most `keepTimeout` seconds) for the sets just made to be kept, then removes the
    /// private folder, if the store had to make one (at unmount).
    func close() {
        if !shelf.keeping.waitUntilIdle(seconds: Self.keepTimeout) {
            logger.warning("unmounting before the tracks just made were kept: they will be made again")
        }
        folder.close()
    }

    /// Bytes of the sets in the private folder (none with a cache folder, which counts its own).
    var privateBytes: Int64 { folder.privateBytes }

    /// The folder a pass would write into now: the cache folder's, else the private folder
    /// (made on first use).
    /// - Throws: `TreeError.io` when no folder can be made.
    func root() throws -> String { try folder.sharedTakingWrites ?? folder.privateRoot() }

    // MARK: - Reading back

    /// Whether `file`, open as `descriptor`, holds the bytes its manifest says: checked once per
    /// mount (files this mount made are trusted). A damaged file removes its whole set from the
    /// disk, to be made again.
    func check(_ file: CachedTrack, descriptor: Int32, key: TrackSetKey, plan: TrackPlan) -> Bool {
        guard let checksum = file.checksum else { return true }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        let mark = "\(file.path)|\(info.st_ino)|\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
        if verified.withLock({ $0.contains(mark) }) { return true }
        guard Checksum.of(descriptor: descriptor, length: Int64(info.st_size)) == checksum else {
            logger.warning("the cached track \(file.path) is damaged (its checksum differs): its set is made again")
            TreeStatistics.count(statistics.trackFilesDamaged)
            folder.remove(CacheRoot.name(for: key, plan: plan), file: file.path)
            return false
        }
        verified.withLock { _ = $0.insert(mark) }
        return true
    }

    /// Keeps the set of `key` holding `file`, open as `descriptor`, out of eviction while the
    /// returned pin lives, and in every mount sharing the cache folder while the descriptor is
    /// open; marks it used.
    func pin(_ file: CachedTrack, descriptor: Int32, key: TrackSetKey, plan: TrackPlan) -> DiskCache.Pin? {
        DiskCache.lockForReading(descriptor)
        return folder.used(CacheRoot.name(for: key, plan: plan), file: file.path)
    }

    // MARK: - Making and keeping

    /// Runs `pass` into a folder of its own in the cache folder and gives it the set's name once
    /// the pass is over; where the cache folder's disk refuses it, or there is no cache folder,
    /// in the private folder instead.
    private func make(_ key: TrackSetKey, plan: TrackPlan, pass: @Sendable (String) -> TrackSet) -> TrackSet {
        let name = CacheRoot.name(for: key, plan: plan)
        if let shared = folder.sharedTakingWrites, let diskCache = folder.diskCache {
            do {
                let set = try run(pass, in: try diskCache.makePassFolder(), as: shared + "/" + name)
                diskCache.refusals.taken(shared)
                return set
            } catch {
                if let code = DiskRefusals.refusal(in: error) {
                    diskCache.refusals.refused(code, writing: "a track pass in \(shared)")
                } else {
                    logger.warning("a track pass cannot be kept in the cache folder, so it goes to a private one: \(error)")
                }
            }
        }
        do {
            let root = try folder.privateRoot()
            let working = try DiskCache.makePassFolder(in: root, named: DiskCache.passPrefix + UUID().uuidString)
            let set = try run(pass, in: working, as: root + "/" + name)
            folder.madePrivate(name, bytes: set.bytes)
            return set
        } catch {
            var set = TrackSet.failed(plan, reason: "no folder takes the tracks: \(error)")
            set.refusedWrite = DiskRefusals.refusal(in: error)
            return set
        }
    }

    /// Runs `pass` into `working`, then names it `final` (`DiskCache.install`).
    /// - Throws: `CacheError.write` when the disk refused a write of the pass (its folder removed)
    ///   or the folder cannot be named.
    private func run(_ pass: @Sendable (String) -> TrackSet, in working: String, as final: String) throws -> TrackSet {
        let set = pass(working)
        if let code = set.refusedWrite {
            DiskCache.removeFolder(working)
            throw CacheError.write(path: working, code: code)
        }
        try DiskCache.install(working, as: final, files: Array(set.madeSizes.keys))
        return set.relocated(to: final)
    }
}
