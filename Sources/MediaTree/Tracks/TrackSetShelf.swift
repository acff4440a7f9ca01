import Foundation
import Glibc
import Logging

/// One pass over one version of a media file, as `MadeOnPool` keys it: by its `TrackSetKey` alone
/// (the plan and the source's path follow from it, and are carried for the shelf).
struct TrackPass: Hashable, Sendable {
    let key: TrackSetKey
    let plan: TrackPlan
    let sourcePath: String

    func hash(into hasher: inout Hasher) { hasher.combine(key) }
    static func == (a: TrackPass, b: TrackPass) -> Bool { a.key == b.key }
}

/// Track sets kept in the cache folder across mounts: a set's folder holds its files and a
/// manifest (the source, the plan, each file's size and checksum), and is indexed in the disk cache.
final class TrackSetShelf: MadeShelf {
    let folder: CacheRoot
    private let logger: Logger
    /// Sets made and not yet kept (checksummed, described, indexed): `TrackStore.close` waits for them.
    let keeping = WorkCount()

    init(folder: CacheRoot, logger: Logger) {
        self.folder = folder
        self.logger = logger
    }

    func load(_ pass: TrackPass) -> TrackSet? {
        guard let root = folder.shared else { return nil }
        let name = CacheRoot.name(for: pass.key, plan: pass.plan)
        guard let set = TrackManifest.load(folder: root + "/" + name, identity: pass.key.identity, plan: pass.plan) else {
            return nil
        }
        // Indexed again as just used (and adopted, had a crash come between manifest and index).
        folder.kept(name, bytes: set.bytes + TrackManifest.length(folder: root + "/" + name))
        return set
    }

    /// Checksums the files of a set just made in the cache folder, writes its manifest, indexes it
    /// in the disk cache (evicting what no longer fits). A set with a failure that may not happen
    /// again is not kept (its folder is removed at a later open of the cache), nor one in the
    /// private folder, which goes at unmount.
    func keep(_ set: TrackSet, for pass: TrackPass) {
        defer { keeping.end() }
        guard !set.isStored, !set.isTransient, let setFolder = set.folder, !folder.isPrivate(setFolder),
              let diskCache = folder.diskCache else { return }
        let name = CacheRoot.name(for: pass.key, plan: pass.plan)
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
            let manifest = TrackManifest(source: .init(path: pass.sourcePath, identity: pass.key.identity), plan: pass.plan,
                                         set: set, checksums: checksums)
            let manifestBytes = try manifest.write(folder: setFolder)
            folder.kept(name, bytes: set.bytes + manifestBytes)
        } catch {
            if let code = DiskRefusals.refusal(in: error) {
                diskCache.refusals.refused(code, writing: "\(setFolder)/\(TrackManifest.fileName)")
            } else {
                logger.warning("cannot keep the tracks of \(pass.sourcePath) in \(setFolder): \(error)")
            }
        }
    }
}

extension MadeKind {
    /// One pass's files (`tracks/`): made by a pass, found complete in the cache folder.
    static let trackSets = MadeKind(name: "track_sets", revision: 1)
    /// One pass reading a version's picture subtitles into text (`tracks/legible/`, and the server
    /// layout's read sidecars).
    static let readTextSets = MadeKind(name: "read_text_sets", revision: 1)
    /// One pass's sidecar subtitles (the server layout's).
    static let sidecarSets = MadeKind(name: "sidecar_sets", revision: 1)
}
