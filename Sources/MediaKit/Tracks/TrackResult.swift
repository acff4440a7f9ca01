import SystemPackage

/// What extraction did for one `TrackJob`: its file, or why there is none.
/// Codable as `{job, track}` or `{job, error}`.
public struct TrackResult: Sendable, Equatable, Codable {
    public var job: TrackJob
    public var outcome: Result<ExtractedTrack, MediaError>

    public init(job: TrackJob, outcome: Result<ExtractedTrack, MediaError>) {
        self.job = job
        self.outcome = outcome
    }

    /// The file, when it was made.
    public var track: ExtractedTrack? {
        if case .success(let track) = outcome { return track }
        return nil
    }

    /// Why it was not made, when it was not.
    public var error: MediaError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case job, track, error
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        job = try container.decode(TrackJob.self, forKey: .job)
        if let track = try container.decodeIfPresent(ExtractedTrack.self, forKey: .track) {
            outcome = .success(track)
        } else {
            outcome = .failure(try container.decode(MediaError.self, forKey: .error))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(job, forKey: .job)
        switch outcome {
        case .success(let track): try container.encode(track, forKey: .track)
        case .failure(let error): try container.encode(error, forKey: .error)
        }
    }
}

/// A track file that extraction completed and renamed to its final name.
public struct ExtractedTrack: Codable, Sendable, Equatable {
    /// The job's path.
    public var path: FilePath
    /// Bytes of the file; the same for every extraction of the same source (the output is bit-exact).
    public var size: Int64
    /// Source packets written (remuxed outputs) or cues written (converted subtitles).
    public var units: Int
    /// Source packets left out: without any timestamp, out of order, or that could not be decoded.
    public var skippedPackets: Int
    /// Set when reading the source stopped on an error before its end (a truncated or damaged
    /// file): the reason. The file is whole and valid, and holds what came before that point.
    public var cutShort: String?

    public init(path: FilePath, size: Int64, units: Int, skippedPackets: Int, cutShort: String?) {
        self.path = path
        self.size = size
        self.units = units
        self.skippedPackets = skippedPackets
        self.cutShort = cutShort
    }
}
