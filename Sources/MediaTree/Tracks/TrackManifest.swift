import Foundation
import MediaKit

/// `manifest.json` of a track folder in the cache: which source and plan the folder was made for,
/// and what came of each entry, with each file's size and checksum. Written last, atomically, once
/// every file of the pass is complete, so a folder with a manifest that matches holds whole files;
/// the checksums are checked when a file is first opened in a mount (`MediaTree.openTrack`).
struct TrackManifest: Codable, Equatable {
    /// Bumped when the folder's layout or the meaning of a field changes: older folders are made again.
    static let currentVersion = 2

    /// The source file, written as one object: its path and its identity's fields beside it.
    struct Source: Codable, Equatable {
        /// Where the file was when the folder was made (for people and `mediafs cache`; not compared).
        var path: String
        var identity: FileIdentity

        private enum CodingKeys: String, CodingKey { case path }

        init(path: String, identity: FileIdentity) {
            self.path = path
            self.identity = identity
        }

        init(from decoder: any Decoder) throws {
            path = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .path)
            identity = try FileIdentity(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try identity.encode(to: encoder)
        }

        func describes(_ identity: FileIdentity) -> Bool { self.identity == identity }
    }

    /// One entry of the plan: its size when it was made, or why it could not be.
    struct Track: Codable, Equatable {
        var group: TrackPlan.Group
        var name: String
        var size: Int64?
        /// `Checksum` of the file's bytes.
        var checksum: UInt64?
        var cutShort: String?
        var error: String?
    }

    var version: Int
    var source: Source
    var plan: TrackPlan
    var tracks: [Track]

    static let fileName = "manifest.json"

    /// - Parameter checksums: by `TrackSet.id`, for every file made.
    init(source: Source, plan: TrackPlan, set: TrackSet, checksums: [String: UInt64]) {
        version = Self.currentVersion
        self.source = source
        self.plan = plan
        tracks = plan.entries.map { entry in
            switch set.outcome(group: entry.group, name: entry.name) {
            case .made(let file)?:
                return Track(group: entry.group, name: entry.name, size: file.size,
                             checksum: checksums[TrackSet.id(group: entry.group, name: entry.name)], cutShort: file.cutShort)
            case .failed(let reason)?:
                return Track(group: entry.group, name: entry.name, error: reason)
            case nil:
                return Track(group: entry.group, name: entry.name, error: "not made")
            }
        }
    }

    /// The set the folder at `folder` holds for `identity` and `plan`, or nil when the manifest is
    /// missing, unreadable, of another version, source or plan, or when a file it lists is missing
    /// or of another size (removed or damaged since): the folder is then made again.
    static func load(folder: String, identity: FileIdentity, plan: TrackPlan) -> TrackSet? {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName),
              let manifest = try? JSONDecoder().decode(TrackManifest.self, from: data),
              manifest.version == currentVersion, manifest.source.describes(identity), manifest.plan == plan,
              manifest.tracks.count == plan.entries.count else { return nil }
        var outcomes: [String: TrackSet.Outcome] = [:]
        for track in manifest.tracks {
            let id = TrackSet.id(group: track.group, name: track.name)
            if let size = track.size {
                let path = folder + "/" + id
                var info = stat()
                guard let checksum = track.checksum, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) == size else { return nil }
                outcomes[id] = .made(CachedTrack(path: path, size: size, cutShort: track.cutShort, checksum: checksum))
            } else {
                outcomes[id] = .failed(reason: track.error ?? "not made")
            }
        }
        return TrackSet(outcomes: outcomes, isTransient: false, isStored: true)
    }

    /// The length of the manifest in `folder`; 0 where there is none.
    static func length(folder: String) -> Int64 {
        var info = stat()
        return stat(folder + "/" + fileName, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Writes the manifest into `folder` under a temporary name and renames it into place, so the
    /// name only ever holds a whole manifest. Not flushed to the disk (an `fsync` after a pass
    /// waits for every track it wrote to reach the disk): after a crash, a manifest that did not survive, or files that
    /// did not, fail the checks of `load`, and the pass runs again.
    /// - Returns: its length in bytes.
    /// - Throws: `CacheError.write`.
    @discardableResult
    func write(folder: String) throws -> Int64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = Array(try encoder.encode(self) + Data("\n".utf8))
        let target = folder + "/" + Self.fileName
        var template = Array("\(folder)/.manifest-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CacheError.write(path: target, code: errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var written = 0
        var failure: Int32 = 0
        while written < data.count {
            let n = data[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failure = n < 0 ? errno : ENOSPC
                break
            }
            written += n
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, target) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw CacheError.write(path: target, code: failure)
        }
        return Int64(data.count)
    }
}
