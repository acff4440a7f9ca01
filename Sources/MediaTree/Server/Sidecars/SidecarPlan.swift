import MediaKit

extension TrackPlan {
    /// The files the server layout's sidecar subtitles of a film are made as, in one pass of their
    /// own (`sidecars`): one per subtitle stream that has a sidecar form, two for a DVD one (its
    /// `.idx` and `.sub`), each named by its stream and extension (`3.srt`, `7.idx`), so the plan
    /// (and the files kept in the cache folder) is the same whatever the film's name. No audio, no
    /// video, no `.vtt`.
    init(sidecarsOf info: MediaInfo) {
        self.init(entries: SidecarTrack.tracks(of: info).usable.flatMap { track in
            zip(track.outputs, track.extensions).map { output, fileExtension in
                Entry(group: .sidecars, name: Self.sidecarName(stream: track.stream.index, fileExtension: fileExtension),
                      streamIndex: track.stream.index, output: output, language: track.storedLanguage)
            }
        })
    }

    /// The name in the plan of a sidecar of stream `stream` with `fileExtension` (with its dot).
    static func sidecarName(stream: Int, fileExtension: String) -> String { "\(stream)\(fileExtension)" }
}

extension MediaTree {
    /// The sidecars of `version` named after a base name `baseNameBytes` long, worked out once.
    func sidecars(of version: MediaVersion, baseNameBytes: Int) -> SidecarSubtitles {
        version.facts.sidecars(baseNameBytes: baseNameBytes)
    }

    /// The plan of `version`'s sidecar pass, worked out once.
    func sidecarPlan(of version: MediaVersion) -> TrackPlan {
        version.facts.sidecarTracks.value { TrackPlan(sidecarsOf: version.info) }
    }
}
