import MediaKit

/// Which pass over which version of a media file: its audio and subtitle tracks together, its
/// alternative video tracks (copying video is expensive, so those are made only when one is asked),
/// the text read from its picture subtitles (slow: never part of the other passes), or the server
/// layout's sidecar subtitles.
struct TrackSetKey: Hashable, Sendable {
    var identity: FileIdentity
    var part: Part

    /// The passes over one version, each making its entries.
    enum Part: String, Sendable {
        /// `audible` and `legible`, but the text read from pictures.
        case main
        case visual
        /// The `legible` text read from picture subtitles (`TrackOutput.isReadFromPictures`), also
        /// what the server layout's read sidecars are.
        case read
        /// The server layout's `sidecars`.
        case sidecars

        /// The pass that makes `entry`.
        init(_ entry: TrackPlan.Entry) {
            if entry.output.isReadFromPictures {
                self = .read
                return
            }
            switch entry.group {
            case .audible, .legible: self = .main
            case .visual: self = .visual
            case .sidecars: self = .sidecars
            }
        }

        /// What the pass's sets are counted as in `user.mediafs.stats`.
        var madeKind: MadeKind {
            switch self {
            case .main, .visual: .trackSets
            case .read: .readTextSets
            case .sidecars: .sidecarSets
            }
        }
    }

    init(identity: FileIdentity, part: Part) {
        self.identity = identity
        self.part = part
    }

    init(identity: FileIdentity, entry: TrackPlan.Entry) {
        self.init(identity: identity, part: Part(entry))
    }

    /// The entries of `plan` this pass makes, in the plan's order.
    func part(of plan: TrackPlan) -> TrackPlan {
        TrackPlan(entries: plan.entries.filter { Part($0) == part })
    }
}

/// A track file kept in the cache folder, complete under its final name.
struct CachedTrack: Sendable, Equatable {
    /// `<cache>/tracks/<key>/<group>/<name>`.
    var path: String
    /// Bytes; the same on every extraction from the same source (the output is bit-exact).
    var size: Int64
    /// Set when the source is damaged or cut: the file holds what came before that point.
    var cutShort: String?
    /// `Checksum` of its bytes, from the manifest of a set found on disk: checked at its first
    /// open in a mount. Nil for a file this mount made (trusted).
    var checksum: UInt64?
}

/// What one pass gave: for every entry of its part of the plan, the file or why there is none.
struct TrackSet: Sendable {
    enum Outcome: Sendable, Equatable {
        case made(CachedTrack)
        case failed(reason: String)
    }

    /// By `TrackSet.id(group:name:)`.
    var outcomes: [String: Outcome]
    /// Some failure may not happen again (a timeout, the disk, the source changing under the pass):
    /// the set is not kept on disk, and kept in memory only for `transientLifetime`.
    var isTransient: Bool
    /// When the set was made or loaded.
    var made = ContinuousClock.now
    /// Whether it was found on disk complete (not made by this mount's pass).
    var isStored = false
    /// The folder of its files (`<root>/<name>`), once a pass's folder was given its name.
    var folder: String?
    /// The errno with which the disk its pass wrote to refused a write (full, read-only: see
    /// `MediaError.refusedWrite`), if it did: the pass is run again elsewhere, and such a set is
    /// never served from memory, so that the next request tries again.
    var refusedWrite: Int32?

    /// Seconds a set with a transient failure is served before a new pass is tried.
    static let transientLifetime: Duration = .seconds(30)

    static func id(group: TrackPlan.Group, name: String) -> String { group.rawValue + "/" + name }

    func outcome(group: TrackPlan.Group, name: String) -> Outcome? {
        outcomes[Self.id(group: group, name: name)]
    }

    /// The same set with its files in `folder` (`<folder>/<group>/<name>`), where a pass's folder was renamed.
    func relocated(to folder: String) -> TrackSet {
        var moved = self
        moved.folder = folder
        for (id, outcome) in outcomes {
            if case .made(var file) = outcome {
                file.path = folder + "/" + id
                moved.outcomes[id] = .made(file)
            }
        }
        return moved
    }

    /// The bytes of its files.
    var bytes: Int64 {
        outcomes.values.reduce(0) { total, outcome in
            if case .made(let file) = outcome { return total + file.size }
            return total
        }
    }

    /// The size of each file made, by id.
    var madeSizes: [String: Int64] {
        outcomes.compactMapValues { outcome in
            if case .made(let file) = outcome { return file.size }
            return nil
        }
    }

    /// Whether it may still be served from memory.
    var isFresh: Bool { !isTransient || (refusedWrite == nil && ContinuousClock.now - made < Self.transientLifetime) }

    /// Every entry of `plan` failed for `reason`: nothing could be done (the file could not be
    /// opened, the cache folder could not be made). Transient.
    static func failed(_ plan: TrackPlan, reason: String) -> TrackSet {
        TrackSet(outcomes: Dictionary(plan.entries.map { (id(group: $0.group, name: $0.name), .failed(reason: reason)) },
                                      uniquingKeysWith: { first, _ in first }),
                 isTransient: true)
    }
}
