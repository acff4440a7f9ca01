import Foundation
import Glibc
import Logging
import MediaKit
import Synchronization

/// Where track sets are written: the disk cache's `<cache>/tracks` (shared with other mounts of
/// the folder, indexed and bounded by the disk cache), or a private folder under /tmp, made on first
/// use and removed by `close()`: with no usable cache folder (with a warning), and for a pass while
/// the cache folder's disk refuses writes (full, read-only: `DiskRefusals`), as at a mount that
/// started without one. The private folder is bounded here, by the same `--cache-size`, least
/// recently used set first, so that it cannot fill /tmp. Which folder a set lies in is told by its
/// path (`isPrivate`): a set the cache refused stays private while remembered, and the next pass
/// goes to the cache folder again.
final class CacheRoot: Sendable {
    private struct State {
        var privateRoot: String?
        /// The sets in the private folder and their bytes, least recently used first.
        var privateSets: [(name: String, bytes: Int64)] = []
    }

    let diskCache: DiskCache?
    private let logger: Logger
    /// Bytes the private folder may hold.
    let capacity: Int64
    private let state = Mutex(State())

    init(diskCache: DiskCache?, capacity: Int64, logger: Logger) {
        self.diskCache = diskCache
        self.capacity = capacity
        self.logger = logger
    }

    /// The cache folder's sets, where there is a cache folder.
    var shared: String? { diskCache?.tracksFolder }

    /// The cache folder's sets, unless there is none or its disk refused a write and still has no
    /// room (a pass there would only fail again).
    var sharedTakingWrites: String? {
        guard let diskCache, !diskCache.refusals.isStillRefusing(diskCache.tracksFolder) else { return nil }
        return diskCache.tracksFolder
    }

    /// The private folder, made on first use.
    /// - Throws: `TreeError.io` when it cannot be made.
    func privateRoot() throws -> String {
        try state.withLock { s in
            if let root = s.privateRoot { return root }
            var template = Array("/tmp/mediafs-tracks-XXXXXX".utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                let reason = String(cString: strerror(errno))
                logger.error("no private folder for tracks can be made under /tmp: \(reason)")
                throw TreeError.io(path: "/tmp/mediafs-tracks-XXXXXX", reason: reason)
            }
            let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            // Why there is no cache folder, or why it refuses writes, was said already, as a warning.
            let why = diskCache == nil ? "no cache folder" : "the cache folder's disk refuses writes"
            logger.notice("\(why): extracted tracks are kept in \(made) until unmount")
            s.privateRoot = made
            return made
        }
    }

    /// Whether `path` (a set's folder or a file in it) lies in the private folder.
    func isPrivate(_ path: String) -> Bool {
        guard let root = state.withLock({ $0.privateRoot }) else { return false }
        return path.hasPrefix(root + "/")
    }

    // MARK: - The sets in it, counted by the disk cache's index or here for the private folder

    /// A set just made (installed as `name` in the private folder, `bytes` of files), counted now
    /// as the most recently used; then the least recently used others are removed until the folder
    /// fits in `capacity` (the set just made stays, even alone over it: it is being served). The
    /// disk cache indexes its sets once they are kept (`kept(_:bytes:)`), after their checksums.
    func madePrivate(_ name: String, bytes: Int64) {
        let removed: [String] = state.withLock { s in
            guard let root = s.privateRoot else { return [] }
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

    /// A set kept in the cache folder with its manifest (`bytes` with it), or adopted from an
    /// earlier mount: indexed in the disk cache as just used, evicting what no longer fits.
    func kept(_ name: String, bytes: Int64) {
        diskCache?.indexTrackSet(key: Self.indexKey(name: name), name: name, bytes: bytes)
    }

    /// The set `name`, holding the file `path`, just read from: marked as used; in the cache folder,
    /// also pinned (out of eviction) while the returned pin lives.
    func used(_ name: String, file path: String) -> DiskCache.Pin? {
        guard let diskCache, !isPrivate(path) else {
            usedPrivateSet(name)
            return nil
        }
        diskCache.touchTrackSet(key: Self.indexKey(name: name))
        return diskCache.pin(name)
    }

    /// Removes the set `name`, holding the file `path` (found damaged), from the disk and from what
    /// counts it.
    func remove(_ name: String, file path: String) {
        if let diskCache, !isPrivate(path) {
            diskCache.removeTrackSet(key: Self.indexKey(name: name), name: name)
        } else {
            removePrivateSet(name)
        }
    }

    /// Removes the set `name` from the private folder (found damaged) and stops counting it.
    private func removePrivateSet(_ name: String) {
        let root: String? = state.withLock { s in
            s.privateSets.removeAll { $0.name == name }
            return s.privateRoot
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
            defer { s.privateRoot = nil; s.privateSets = [] }
            return s.privateRoot
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
        return Checksum.hex(StableHasher.hash { $0.add(text.utf8) })
            + Checksum.hex(StableHasher.hash(basis: 0x6c62_272e_07bb_0142) { $0.add(text.utf8) })
    }

    /// The disk cache's key of the set `name`.
    static func indexKey(name: String) -> String { "tracks-\(TrackManifest.currentVersion) \(name)" }
}
