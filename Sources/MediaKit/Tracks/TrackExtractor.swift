import CAV

/// Makes the files of a `TrackPlan` in one pass over the source: the file is demuxed once, and each
/// packet goes to the sinks of its stream, which write their outputs to disk as they go.
///
/// Streams that no entry needs are discarded in the demuxer. Memory stays bounded: the packets in
/// the relay between the reading and the writing thread (`PacketRelay`), each output's muxer, and
/// per text subtitle stream its decoder and an encoder per converted file.
final class TrackExtractor {
    private let input: InputFile
    private let folder: String
    /// Outcomes decided so far, by entry.
    private var outcomes: [TrackPlan.Entry: Result<ExtractedTrack, MediaError>] = [:]
    /// The sinks still working, by stream index.
    private(set) var sinks: [Int: [TrackSink]] = [:]

    /// Opens the source (or takes the file a probe just opened from `probed`) and checks that it
    /// is the file the caller described.
    /// - Throws: `MediaError.notMedia`, `.timedOut` (opening took longer than `timeout`), `.sourceChanged`.
    init(path: String, size: Int64, folder: String, timeout: Double, probed: ProbedInputs? = nil) throws {
        input = try InputFile.open(path, timeout: timeout, takingFrom: probed)
        self.folder = folder
        if let pb = input.context.pointee.pb {
            let actual = avio_size(pb)
            if actual >= 0 && actual != size {
                throw MediaError.sourceChanged(reason: "\(path) has \(actual) bytes, not \(size)")
            }
        }
    }

    /// Extracts every entry of `plan`; one result per entry, in the plan's order.
    /// - Throws: `MediaError.output` when the group folders cannot be made; every other failure
    ///   is the failure of the tracks it touches, in their results.
    func run(_ plan: TrackPlan) throws -> [TrackResult] {
        for group in TrackPlan.Group.allCases where plan.entries.contains(where: { $0.group == group }) {
            try makeFolders("\(folder)/\(group.rawValue)")
        }
        var byStream: [Int: [TrackPlan.Entry]] = [:]
        for entry in plan.entries { byStream[entry.streamIndex, default: []].append(entry) }
        for (index, entries) in byStream.sorted(by: { $0.key < $1.key }) {
            makeSinks(for: entries, streamIndex: index)
        }
        let streams = input.streams
        for stream in streams {
            stream.pointee.discard = sinks[Int(stream.pointee.index)] == nil ? AVDISCARD_ALL : AVDISCARD_DEFAULT
        }
        let end = readAll()
        finishSinks(end)
        return plan.entries.map { entry in
            TrackResult(entry: entry, outcome: outcomes[entry]
                ?? .failure(.trackUnavailable(stream: entry.streamIndex, reason: "not made")))
        }
    }

    /// The path of an entry's file.
    func finalPath(of entry: TrackPlan.Entry) -> String {
        "\(folder)/\(entry.group.rawValue)/\(entry.name)"
    }

    // MARK: - Setting up

    /// Makes the sinks for the entries of one stream: one decoding sink for its `.srt` and `.vtt`
    /// entries, one remuxing sink for each other entry. An entry whose sink cannot be made fails.
    private func makeSinks(for entries: [TrackPlan.Entry], streamIndex: Int) {
        let streams = input.streams
        guard streamIndex >= 0, streamIndex < streams.count else {
            return fail(entries, .trackUnavailable(stream: streamIndex, reason: "the file has \(streams.count) streams"))
        }
        let stream = streams[streamIndex]
        let source = SourceStream(stream: stream, fileStart: input.context.pointee.start_time,
                                  language: entries[0].language)
        var usable: [TrackPlan.Entry] = []
        for entry in entries {
            if let problem = mismatch(entry.output, stream.pointee.codecpar.pointee) {
                fail([entry], .trackUnavailable(stream: streamIndex, reason: problem))
            } else {
                usable.append(entry)
            }
        }
        let text = usable.filter { $0.output == .subtitleSRT || $0.output == .subtitleWebVTT }
        if !text.isEmpty {
            attempt(text) {
                try TextSubtitleSink(entries: text, source: source, paths: text.map(self.finalPath), deadline: self.input.deadline)
            }
        }
        for entry in usable where !text.contains(entry) {
            attempt([entry]) {
                try RemuxSink(entry: entry, source: source, finalPath: self.finalPath(of: entry),
                              deadline: self.input.deadline)
            }
        }
    }

    /// Adds the sink `make` returns, or fails `entries` with its error.
    private func attempt(_ entries: [TrackPlan.Entry], _ make: () throws -> TrackSink) {
        do {
            let sink = try make()
            sinks[entries[0].streamIndex, default: []].append(sink)
        } catch {
            fail(entries, error as? MediaError ?? .trackUnavailable(stream: entries[0].streamIndex, reason: "\(error)"))
        }
    }

    /// Why a stream with these parameters cannot give `output`, or nil when it can.
    private func mismatch(_ output: TrackOutput, _ parameters: AVCodecParameters) -> String? {
        let codec = String(cString: avcodec_get_name(parameters.codec_id))
        let type = parameters.codec_type
        switch output {
        case .audioMatroska:
            return type == AVMEDIA_TYPE_AUDIO ? nil : "not an audio stream (\(codec))"
        case .videoMatroska:
            return type == AVMEDIA_TYPE_VIDEO ? nil : "not a video stream (\(codec))"
        case .subtitleSRT, .subtitleWebVTT, .bitmapMatroska:
            return type == AVMEDIA_TYPE_SUBTITLE ? nil : "not a subtitle stream (\(codec))"
        case .subtitleASS:
            return parameters.codec_id == AV_CODEC_ID_ASS || parameters.codec_id == AV_CODEC_ID_SSA ? nil : "not ASS/SSA subtitles (\(codec))"
        case .bitmapSUP:
            return parameters.codec_id == AV_CODEC_ID_HDMV_PGS_SUBTITLE ? nil : "not PGS subtitles (\(codec))"
        }
    }

    // MARK: - Outcomes

    func fail(_ entries: [TrackPlan.Entry], _ error: MediaError) {
        for entry in entries { outcomes[entry] = .failure(error) }
    }

    /// Fails every sink still working with `error` and drops them (their temporary files go with them).
    func failAll(_ error: MediaError) {
        for sink in sinks.values.joined() { fail(sink.entries, error) }
        sinks.removeAll()
    }

    /// Drops one sink that failed, and fails its entries.
    func drop(_ sink: TrackSink, streamIndex: Int, _ error: MediaError) {
        fail(sink.entries, error)
        sinks[streamIndex]?.removeAll { $0 === sink }
        if sinks[streamIndex]?.isEmpty == true { sinks[streamIndex] = nil }
    }

    var hasWork: Bool { !sinks.isEmpty }

    func sinks(of streamIndex: Int) -> [TrackSink] { sinks[streamIndex] ?? [] }

    var context: UnsafeMutablePointer<AVFormatContext> { input.context }
    var deadline: Deadline { input.deadline }

    /// Completes every sink still working. On a damaged source, a sink that saw none of its packets
    /// before the damage fails rather than give an empty file.
    private func finishSinks(_ end: PassEnd) {
        for sink in sinks.sorted(by: { $0.key < $1.key }).flatMap(\.value) {
            if let cut = end.cutShort, sink.packetsSeen == 0 {
                fail(sink.entries, .trackUnavailable(stream: sink.entries[0].streamIndex,
                                                     reason: "the file is damaged before any of its data (\(cut))"))
                continue
            }
            do {
                for (entry, track) in zip(sink.entries, try sink.finish(end)) {
                    outcomes[entry] = .success(track)
                }
            } catch {
                fail(sink.entries, error as? MediaError ?? .trackUnavailable(stream: sink.entries[0].streamIndex, reason: "\(error)"))
            }
        }
        sinks.removeAll()
    }
}
