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

/// The folder holding the track folders: `<cache>/tracks`, or a private folder under /tmp when the
/// cache folder cannot be written (with a warning), made on first use and removed by `close()`.
final class CacheRoot: Sendable {
    private struct State {
        var root: String?
        var isPrivate = false
    }

    private let configured: String?
    private let logger: Logger
    private let state = Mutex(State())

    /// Checks the configured folder at once, so that a mount that cannot use it says so when it starts.
    init(configured: String?, logger: Logger) {
        self.configured = configured
        self.logger = logger
        if configured != nil { _ = try? root() }
    }

    /// The folder of the set `key` of `plan`: `<root>/<key>`, made unless `create` is false.
    /// - Throws: `TreeError.io` when no folder can be made.
    func folder(for key: TrackSetKey, plan: TrackPlan, create: Bool = true) throws -> String {
        let path = try root() + "/" + Self.name(for: key, plan: plan)
        if create { try makeFolder(path) }
        return path
    }

    /// The track cache's root, made on first use.
    func root() throws -> String {
        try state.withLock { s in
            if let root = s.root { return root }
            var problem: String?
            if let configured {
                let wanted = configured + "/tracks"
                do {
                    try makeFolder(wanted)
                    try checkWritable(wanted)
                    s.root = wanted
                    return wanted
                } catch {
                    problem = "the cache folder \(wanted) cannot be written (\(error))"
                }
            }
            var template = Array("/tmp/mediafs-tracks-XXXXXX".utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                let reason = String(cString: strerror(errno))
                logger.error("\(problem ?? "no cache folder"), and no private folder can be made under /tmp: \(reason)")
                throw TreeError.io(path: "/tmp/mediafs-tracks-XXXXXX", reason: reason)
            }
            let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if let problem { logger.warning("\(problem): tracks are kept in \(made) until unmount") }
            s.root = made
            s.isPrivate = true
            return made
        }
    }

    /// Removes the private folder, if one was made.
    func close() {
        let privateRoot: String? = state.withLock { s in
            defer { if s.isPrivate { s.root = nil; s.isPrivate = false } }
            return s.isPrivate ? s.root : nil
        }
        if let privateRoot { try? FileManager.default.removeItem(atPath: privateRoot) }
    }

    /// 32 hex digits: two 64-bit FNV-1a hashes of the identity, the part and the plan. The manifest
    /// repeats what was hashed and is compared in full, so a collision makes a pass, never a wrong file.
    static func name(for key: TrackSetKey, plan: TrackPlan) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let planText = (try? encoder.encode(plan)).map { String(decoding: $0, as: UTF8.self) } ?? "\(plan)"
        let identity = key.identity
        let text = "mediafs-tracks v\(TrackManifest.currentVersion)|\(identity.device)|\(identity.inode)|\(identity.size)|"
            + "\(identity.modificationNanoseconds)|\(key.visual ? "visual" : "main")|\(planText)"
        return hex(fnv1a(text, basis: 0xcbf2_9ce4_8422_2325)) + hex(fnv1a(text, basis: 0x6c62_272e_07bb_0142))
    }

    private static func fnv1a(_ text: String, basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw TreeError.io(path: path, reason: "cannot make the folder: \(error.localizedDescription)")
        }
    }

    private func checkWritable(_ path: String) throws {
        var template = Array("\(path)/.check-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TreeError.io(path: path, reason: String(cString: strerror(errno))) }
        Glibc.close(fd)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }
}
