import Foundation
import Glibc
import Logging
import MediaKit
import Synchronization

/// The folder holding the track folders: the disk cache's `<cache>/tracks`, or, with no usable
/// cache folder, a private folder under /tmp (with a warning), made on first use and removed by
/// `close()`. The disk cache bounds its own folder; the private one is bounded here, by the same
/// `--cache-size`, least recently used set first, so a mount without a cache folder cannot fill /tmp.
final class CacheRoot: Sendable {
    private struct State {
        var root: String?
        var isPrivate = false
        /// The sets in the private folder and their bytes, least recently used first.
        var privateSets: [(name: String, bytes: Int64)] = []
    }

    private let diskCache: DiskCache?
    private let logger: Logger
    /// Bytes the private folder may hold.
    let capacity: Int64
    private let state = Mutex(State())

    init(diskCache: DiskCache?, capacity: Int64, logger: Logger) {
        self.diskCache = diskCache
        self.capacity = capacity
        self.logger = logger
    }

    /// The track cache's root, made on first use.
    /// - Throws: `TreeError.io` when no folder can be made.
    func root() throws -> String {
        if let diskCache { return diskCache.tracksFolder }
        return try state.withLock { s in
            if let root = s.root { return root }
            var template = Array("/tmp/mediafs-tracks-XXXXXX".utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                let reason = String(cString: strerror(errno))
                logger.error("no cache folder, and no private folder for tracks can be made under /tmp: \(reason)")
                throw TreeError.io(path: "/tmp/mediafs-tracks-XXXXXX", reason: reason)
            }
            let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            logger.warning("the cache folder cannot be written (memory caching only): extracted tracks are kept in \(made) until unmount")
            s.root = made
            s.isPrivate = true
            return made
        }
    }

    // MARK: - The sets in it, counted by the disk cache's index or here for the private folder

    /// A set just made (installed as `name`, `bytes` of files): counted in the private folder now;
    /// the disk cache indexes it once it is kept (`kept(_:bytes:)`), after its checksums.
    func made(_ name: String, bytes: Int64) {
        if diskCache == nil { madePrivateSet(name, bytes: bytes) }
    }

    /// A set kept with its manifest (`bytes` with it), or adopted from an earlier mount: indexed
    /// in the disk cache as just used, evicting what no longer fits. Nothing for the private folder,
    /// which counted it when it was made.
    func kept(_ name: String, bytes: Int64) {
        diskCache?.indexTrackSet(key: Self.indexKey(name: name), name: name, bytes: bytes)
    }

    /// The set `name` just read from: marked as used; with a cache folder, also pinned (out of
    /// eviction) while the returned pin lives.
    func used(_ name: String) -> DiskCache.Pin? {
        guard let diskCache else {
            usedPrivateSet(name)
            return nil
        }
        diskCache.touchTrackSet(key: Self.indexKey(name: name))
        return diskCache.pin(name)
    }

    /// Removes the set `name` (found damaged) from the disk and from what counts it.
    func remove(_ name: String) {
        if let diskCache {
            diskCache.removeTrackSet(key: Self.indexKey(name: name), name: name)
        } else {
            removePrivateSet(name)
        }
    }

    /// Counts the set `name` (`bytes`) just made in the private folder as the most recently used,
    /// then removes the least recently used others until the folder fits in `capacity` (the set
    /// just made stays, even alone over it: it is being served). Nothing for the disk cache's folder.
    private func madePrivateSet(_ name: String, bytes: Int64) {
        let removed: [String] = state.withLock { s in
            guard s.isPrivate, let root = s.root else { return [] }
            s.privateSets.removeAll { $0.name == name }
            s.privateSets.append((name, bytes))
            var total = s.privateSets.reduce(0) { $0 + $1.bytes }
            var removed: [String] = []
            while total > capacity, s.privateSets.count > 1 {
                let oldest = s.privateSets.removeFirst()
                total -= oldest.bytes
                removed.append(root + "/" + oldest.name)
            }
            return removed
        }
        // A file still open stays readable through its descriptor; a later open makes the set again.
        for folder in removed { DiskCache.removeFolder(folder) }
    }

    /// Removes the set `name` from the private folder (found damaged) and stops counting it.
    private func removePrivateSet(_ name: String) {
        let root: String? = state.withLock { s in
            s.privateSets.removeAll { $0.name == name }
            return s.root
        }
        if let root { DiskCache.removeFolder(root + "/" + name) }
    }

    /// Marks the set `name` of the private folder as just used.
    private func usedPrivateSet(_ name: String) {
        state.withLock { s in
            guard let index = s.privateSets.firstIndex(where: { $0.name == name }) else { return }
            s.privateSets.append(s.privateSets.remove(at: index))
        }
    }

    /// Bytes of the sets in the private folder.
    var privateBytes: Int64 { state.withLock { $0.privateSets.reduce(0) { $0 + $1.bytes } } }

    /// Removes the private folder, if one was made.
    func close() {
        let privateRoot: String? = state.withLock { s in
            defer { if s.isPrivate { s.root = nil; s.isPrivate = false; s.privateSets = [] } }
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
            + "\(identity.modificationNanoseconds)|\(key.part.rawValue)|\(planText)"
        return hex(StableHasher.hash { $0.add(text.utf8) }) + hex(StableHasher.hash(basis: 0x6c62_272e_07bb_0142) { $0.add(text.utf8) })
    }

    /// The disk cache's key of the set `name`.
    static func indexKey(name: String) -> String { "tracks-\(TrackManifest.currentVersion) \(name)" }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
