import Foundation
import GRDB
import MediaKit
import Synchronization

/// What is learnt of each version of a media file, kept across mounts in the cache database's
/// `version` table: one row per version (device, inode, size, modification time in ns), a column
/// per fact (`Fact`: its probe, its chapters, its listing facts), so that a remount reads all it
/// needs of a version in one read, and a changed file is a miss.
///
/// A fact is kept with its kind (what shapes it: the schema of `MediaInfo`, the chapter reader's,
/// the mount's settings for listing facts): another kind is a miss too. A probe is the
/// `MediaInfo`, or the `MediaError` of a probe that failed for good (not media, damaged), so that a
/// remount does not open broken files again either; failures that may pass are not kept.
///
/// Every value carries a checksum over its key, fact, kind and bytes, checked in the one place
/// rows are read (`stored(_:listingKind:)`): SQLite's own checks pass a row whose bytes changed on
/// the disk, and a flipped digit in a width or a listed length would be served as a fact. A value
/// that fails it is treated as absent (probed or learnt again), logged once and removed.
///
/// Writes wait in batches: a first listing of a library probes thousands of files, two or more at
/// once, and a transaction each (with its JSON encoding) held up the probing threads
/// (PERFORMANCE.md, films). What is stored waits up to `batchDelay` (or `batchSize` versions), is
/// read from memory meanwhile, and is written at `flush` and when the database is released.
public final class ProbeDatabase: Sendable {
    /// Changes whenever `MediaInfo` or the prober changes what it records.
    public static let fingerprint = "mediainfo-5"
    /// Changes whenever the chapter readers change what they record.
    static let chaptersKind = "chapters-1"
    /// Changes whenever the scene detector or the season comparison change what they find.
    static let analysisKind = "analysis-1"
    /// Changes whenever the audio fingerprints change.
    static let audioKind = "audio-1"

    let database: CacheDatabase
    /// Values stored and not yet written, by version.
    private let pending = Mutex<[FileIdentity: [Fact: Waiting]]>([:])
    /// Values found damaged in this process, so that each is logged once even where it cannot be removed.
    let damaged = Mutex<Set<String>>([])

    static let batchDelay = 1.0
    static let batchSize = 256

    /// The facts of a row, each a column with its kind and checksum.
    enum Fact: String, CaseIterable, Sendable {
        case probe, chapters, listing
        /// What the analysis found (`VersionAnalysis`), and an episode's audio fingerprints.
        case analysis, audio
    }

    /// A value waiting to be written: encoded when it is (listing facts grow meanwhile).
    enum Waiting: Sendable {
        case probe(Kept)
        case chapters(ChapterList)
        case listing(ListingFacts, kind: String)
        case analysis(VersionAnalysis)
        case audio(EpisodeAudio)
    }

    public init(database: CacheDatabase) {
        self.database = database
    }

    deinit { flush() }

    /// What is kept for a file: its probe, or why it cannot be probed.
    public enum Kept: Sendable, Equatable {
        case info(MediaInfo)
        case failure(MediaError)
    }

    /// What the row of a version holds: each fact where it is kept, whole and of the kind asked.
    struct Stored: Sendable {
        var probe: Kept?
        /// The probe's length as stored: what a record of it costs is reckoned from it.
        var probeBytes = 0
        var chapters: ChapterList?
        var listing: ListingFacts.Stored?
        var analysis: VersionAnalysis?
        var audio: EpisodeAudio?
    }

    /// The kept probe of the file at `identity`, or nil (not kept, or the database cannot be read).
    public func kept(_ identity: FileIdentity) -> Kept? {
        stored(identity, listingKind: "").probe
    }

    /// What is kept of the version `identity`, its listing facts of `listingKind`, in one read.
    func stored(_ identity: FileIdentity, listingKind: String) -> Stored {
        var stored = Stored()
        let decoder = JSONDecoder()
        let kinds: [Fact: String] = [.probe: Self.fingerprint, .chapters: Self.chaptersKind, .listing: listingKind,
                                     .analysis: Self.analysisKind, .audio: Self.audioKind]
        for (fact, data) in values(of: identity, kinds: kinds) {
            switch fact {
            case .probe:
                stored.probe = (try? decoder.decode(StoredProbe.self, from: data))?.kept
                stored.probeBytes = data.count
            case .chapters: stored.chapters = try? decoder.decode(ChapterList.self, from: data)
            case .listing: stored.listing = try? decoder.decode(ListingFacts.Stored.self, from: data)
            case .analysis: stored.analysis = try? decoder.decode(VersionAnalysis.self, from: data)
            case .audio: stored.audio = try? decoder.decode(EpisodeAudio.self, from: data)
            }
        }
        for (fact, waiting) in pending.withLock({ $0[identity] ?? [:] }) {
            switch waiting {
            case .probe(let kept) where fact == .probe: stored.probe = kept
            case .chapters(let list): stored.chapters = list
            case .listing(let facts, let kind) where kind == listingKind: stored.listing = facts.snapshot
            case .analysis(let analysis): stored.analysis = analysis
            case .audio(let audio): stored.audio = audio
            default: break
            }
        }
        return stored
    }

    /// Keeps the probe of the file at `identity`.
    public func store(_ kept: Kept, for identity: FileIdentity) { store(.probe(kept), as: .probe, for: identity) }

    /// Keeps the chapters of the file at `identity`.
    func store(chapters: ChapterList, for identity: FileIdentity) { store(.chapters(chapters), as: .chapters, for: identity) }

    /// Keeps the listing facts of the file at `identity` as they are when written (`facts` grows).
    func store(listing facts: ListingFacts, kind: String, for identity: FileIdentity) {
        store(.listing(facts, kind: kind), as: .listing, for: identity)
    }

    /// Keeps what the analysis of the file at `identity` found.
    func store(analysis: VersionAnalysis, for identity: FileIdentity) { store(.analysis(analysis), as: .analysis, for: identity) }

    /// Keeps the audio fingerprints of the episode at `identity`.
    func store(audio: EpisodeAudio, for identity: FileIdentity) { store(.audio(audio), as: .audio, for: identity) }

    /// Adds `value` to the batch, written with the others of its batch. Errors are dropped: the
    /// cache is an optimisation.
    private func store(_ value: Waiting, as fact: Fact, for identity: FileIdentity) {
        let count = pending.withLock { waiting in
            waiting[identity, default: [:]][fact] = value
            return waiting.count
        }
        // Once per batch: at its first value (the delay) and when it fills (stores past that, before
        // the flush takes them, go with it).
        if count == Self.batchSize {
            DispatchQueue.global(qos: .utility).async { [weak self] in self?.flush() }
        } else if count == 1 {
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.batchDelay) { [weak self] in self?.flush() }
        }
    }

    /// How many versions have values waiting to be written.
    var waitingVersions: Int { pending.withLock { $0.count } }

    /// Writes the values stored and not yet written, in one transaction.
    public func flush() {
        let batch = pending.withLock { waiting in
            defer { waiting = [:] }
            return waiting
        }
        guard !batch.isEmpty else { return }
        let encoder = JSONEncoder()
        let now = Int64(Date().timeIntervalSince1970)
        try? database.pool.write { db in
            for (identity, values) in batch {
                for (fact, value) in values {
                    let encoded: (kind: String, data: Data?)
                    switch value {
                    case .probe(let kept): encoded = (Self.fingerprint, try? encoder.encode(StoredProbe(kept)))
                    case .chapters(let list): encoded = (Self.chaptersKind, try? encoder.encode(list))
                    case .listing(let facts, let kind): encoded = (kind, try? encoder.encode(facts.snapshot))
                    case .analysis(let analysis): encoded = (Self.analysisKind, try? encoder.encode(analysis))
                    case .audio(let audio): encoded = (Self.audioKind, try? encoder.encode(audio))
                    }
                    guard let data = encoded.data else { continue }
                    try Self.write(db, fact, of: identity, kind: encoded.kind, data: data, at: now)
                }
            }
        }
    }

    /// Whether a failure is worth keeping: true where probing the same bytes again would fail again.
    public static func isLasting(_ error: MediaError) -> Bool { !error.mayPass }

    /// Probes kept (versions with a probe).
    public func count() throws -> Int {
        flush()
        return try database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM version WHERE probe IS NOT NULL AND probe_kind = ?",
                             arguments: [Self.fingerprint]) ?? 0
        }
    }

    /// Forgets every version's facts.
    public func clear() throws {
        pending.withLock { $0 = [:] }
        _ = try database.pool.write { db in try db.execute(sql: "DELETE FROM version") }
    }
}

/// A probe as kept: its `MediaInfo`, or why the file cannot be probed.
private struct StoredProbe: Codable {
    var info: MediaInfo?
    var failure: MediaError?

    init(_ kept: ProbeDatabase.Kept) {
        switch kept {
        case .info(let info): self.info = info
        case .failure(let failure): self.failure = failure
        }
    }

    var kept: ProbeDatabase.Kept? {
        if let info { return .info(info) }
        return failure.map { .failure($0) }
    }
}
