import Foundation
import Glibc
import Logging
import MediaKit
import Synchronization

/// Extracted tracks: made by one pass per file version and part, on a pool of their own, kept on
/// disk in the cache folder (bounded with the other made files, `DiskCache+TrackSets`) and
/// remembered in memory.
///
/// A request is answered from memory, else from a folder an earlier pass (in this mount or an
/// earlier one) completed, else by a new pass, which everyone asking for the same key meanwhile
/// shares (`SharedJobs`). No asker's thread waits for a pass: completions run on the pool's thread
/// that did it, as soon as its files are complete; the same thread then checksums them, writes the
/// set's manifest and indexes it (about 5% of a pass: reading back and hashing what it wrote, from
/// the page cache), while the askers read.
///
/// On disk: `<tracks>/<name>/<group>/<file>` and `<tracks>/<name>/manifest.json`, where `<name>`
/// (32 hex digits, `CacheRoot.name`) hashes the source's identity and the part of the plan.
final class TrackStore: Sendable {
    typealias Completion = @Sendable (TrackSet) -> Void

    /// Sets by key; small (names and sizes), so bounded by count.
    private let jobs: SharedJobs<TrackSetKey, TrackSet>
    private let folder: CacheRoot
    let statistics: TreeStatistics
    private let logger: Logger
    /// Files whose checksum was checked in this mount: path, inode and change time.
    private let verified = Mutex<Set<String>>([])
    /// Sets made and not yet kept (checksummed, described, indexed): `close` waits for them.
    private let keeping = WorkCount()
    static let keepTimeout = 30.0

    init(settings: TreeSettings, diskCache: DiskCache?, logger: Logger, statistics: TreeStatistics) {
        let pool = WorkerPool(name: "mediafs-tracks", threads: settings.trackThreads)
        jobs = SharedJobs(pool: pool, cache: MemoryCache(capacity: 10_000), cost: { _ in 1 }, isCurrent: { $0.isFresh })
        folder = CacheRoot(diskCache: diskCache, capacity: settings.diskCacheBytes, logger: logger)
        self.statistics = statistics
        self.logger = logger
    }

    /// Calls `completion` with the set for `key`: remembered, left on disk by an earlier pass,
    /// under way, or made now by `pass` on the pool (given the folder to write into).
    /// - Parameters:
    ///   - plan: the entries of this pass (`key.part(of:)` the file's plan).
    ///   - skipMemory: do not trust the remembered set (a file it names was found missing or damaged).
    func request(_ key: TrackSetKey, plan: TrackPlan, sourcePath: String, skipMemory: Bool = false,
                 pass: @escaping @Sendable (_ folder: String) -> TrackSet, completion: @escaping Completion) {
        jobs.request(key, skipCache: skipMemory, quick: { [self] in loadFromDisk(key, plan: plan) }, work: { [self] in
            // Completed meanwhile by a pass that ended between our checks and our registration.
            if let loaded = loadFromDisk(key, plan: plan) { return loaded }
            let set = make(key, plan: plan, pass: pass)
            // Counted from before the answer, so an unmount right after it still waits; not during
            // the pass, which an unmount does not wait for.
            keeping.begin()
            return set
        }, afterward: { [self] set in
            // Made by `make` (a set loaded from disk is kept already): kept after the answer, while
            // the askers read its files.
            guard !set.isStored else { return }
            defer { keeping.end() }
            keep(set, key: key, plan: plan, sourcePath: sourcePath)
        }, completion: { result in
            completion((try? result.get()) ?? .failed(plan, reason: "no track set"))
        })
    }

    /// The set for `key` where it is remembered (made or found on disk earlier in this mount),
    /// without looking further: nil otherwise.
    func remembered(_ key: TrackSetKey) -> TrackSet? {
        jobs.cache.value(for: key).flatMap { $0.isFresh ? $0 : nil }
    }

    /// Passes queued or running.
    var inFlight: Int { jobs.inFlight }

    /// Waits (at most `keepTimeout` seconds) for the sets just made to be kept, then removes the
    /// private folder, if the store had to make one (at unmount).
    func close() {
        if !keeping.waitUntilIdle(seconds: Self.keepTimeout) {
            logger.warning("unmounting before the tracks just made were kept: they will be made again")
        }
        folder.close()
    }

    /// Bytes of the sets in the private folder (none with a cache folder, which counts its own).
    var privateBytes: Int64 { folder.privateBytes }

    /// The folder holding the track folders (made on first use).
    /// - Throws: `TreeError.io` when no folder can be made.
    func root() throws -> String { try folder.root() }

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
            folder.remove(CacheRoot.name(for: key, plan: plan))
            return false
        }
        verified.withLock { _ = $0.insert(mark) }
        return true
    }

    /// Keeps the set of `key` out of eviction while the returned pin lives, and marks it used.
    func pin(_ key: TrackSetKey, plan: TrackPlan) -> DiskCache.Pin? {
        folder.used(CacheRoot.name(for: key, plan: plan))
    }

    // MARK: - Making and keeping

    /// Runs `pass` into a folder of its own and gives it the set's name once the pass is over.
    private func make(_ key: TrackSetKey, plan: TrackPlan, pass: @Sendable (String) -> TrackSet) -> TrackSet {
        do {
            let root = try folder.root()
            let working = try DiskCache.makePassFolder(in: root)
            let set = pass(working)
            let name = CacheRoot.name(for: key, plan: plan)
            try DiskCache.install(working, as: root + "/" + name)
            folder.made(name, bytes: set.bytes)
            return set.relocated(to: root + "/" + name)
        } catch {
            return .failed(plan, reason: "the cache folder cannot be used: \(error)")
        }
    }

    /// Checksums the files of a set just made, writes its manifest, indexes it in the disk cache
    /// (evicting what no longer fits). A set with a failure that may not
    /// happen again is not kept (its folder is removed at the next open of the cache).
    private func keep(_ set: TrackSet, key: TrackSetKey, plan: TrackPlan, sourcePath: String) {
        guard !set.isStored, !set.isTransient, let root = try? folder.root() else { return }
        let name = CacheRoot.name(for: key, plan: plan)
        var checksums: [String: UInt64] = [:]
        for (id, outcome) in set.outcomes {
            guard case .made(let file) = outcome else { continue }
            let fd = open(file.path, O_RDONLY | O_CLOEXEC)
            defer { if fd >= 0 { Glibc.close(fd) } }
            guard fd >= 0, let checksum = Checksum.of(descriptor: fd, length: file.size) else {
                logger.warning("cannot read back \(file.path) to keep it: \(String(cString: strerror(errno)))")
                return
            }
            checksums[id] = checksum
        }
        do {
            let manifest = TrackManifest(source: .init(path: sourcePath, identity: key.identity), plan: plan,
                                         set: set, checksums: checksums)
            let manifestBytes = try manifest.write(folder: root + "/" + name)
            folder.kept(name, bytes: set.bytes + manifestBytes)
        } catch {
            logger.warning("cannot keep the tracks of \(sourcePath) in \(root)/\(name): \(error)")
        }
    }

    private func loadFromDisk(_ key: TrackSetKey, plan: TrackPlan) -> TrackSet? {
        guard let root = try? folder.root() else { return nil }
        let name = CacheRoot.name(for: key, plan: plan)
        guard let set = TrackManifest.load(folder: root + "/" + name, identity: key.identity, plan: plan) else { return nil }
        TreeStatistics.count(statistics.trackSetsReused)
        // Indexed again as just used (and adopted, had a crash come between manifest and index).
        folder.kept(name, bytes: set.bytes + TrackManifest.length(folder: root + "/" + name))
        return set
    }
}
