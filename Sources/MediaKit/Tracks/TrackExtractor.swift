import CAV
import SystemPackage

/// Does a list of `TrackJob`s in one pass over the source: the file is demuxed once, and each
/// packet goes to the sinks of its stream, which write their outputs to disk as they go.
///
/// Streams that no job needs are discarded in the demuxer. Memory stays bounded: the packets in
/// the relay between the reading and the writing thread (`PacketRelay`), each output's muxer, and
/// per text subtitle stream its decoder and an encoder per converted file.
final class TrackExtractor {
    private let input: InputFile
    /// Outcomes decided so far, by job.
    private var outcomes: [TrackJob: Result<ExtractedTrack, MediaError>] = [:]
    /// The sinks still working, by stream index.
    private(set) var sinks: [Int: [TrackSink]] = [:]
    /// How picture subtitles are read into text: on how many threads, pausing where.
    private let reading: AnalysisRequest

    /// Opens the source (or takes the file a probe just opened from `probed`) and checks that it
    /// is the file the caller described.
    /// - Throws: `MediaError.notMedia`, `.timedOut` (opening took longer than `timeout`), `.sourceChanged`.
    /// - Parameter reading: how picture subtitles are read into text.
    init(path: FilePath, size: Int64, timeout: Double, probed: ProbedInputs? = nil, reading: AnalysisRequest = AnalysisRequest()) throws {
        self.reading = reading
        input = try InputFile.open(path, timeout: timeout, takingFrom: probed)
        input.clearReadFault()
        guard input.source.size == size else {
            throw MediaError.sourceChanged(reason: "\(path) has \(input.source.size) bytes, not \(size)")
        }
    }

    /// Does every job; one result per job, in their order. Every failure (an output that cannot
    /// be written, a stream that cannot give the output asked, damage, the deadline, a read of the
    /// source that failed) is the failure of the jobs it touches, in their results.
    func run(_ jobs: [TrackJob]) -> [TrackResult] {
        var byStream: [Int: [TrackJob]] = [:]
        for job in jobs { byStream[job.streamIndex, default: []].append(job) }
        for (index, jobs) in byStream.sorted(by: { $0.key < $1.key }) {
            makeSinks(for: jobs, streamIndex: index)
        }
        let streams = input.streams
        for stream in streams {
            stream.pointee.discard = sinks[Int(stream.pointee.index)] == nil ? AVDISCARD_ALL : AVDISCARD_DEFAULT
        }
        let end = readAll()
        // A read that failed would leave the tracks cut where the disk failed, looking like a
        // damaged file's and kept as such: every job fails instead, to be made again once the
        // file reads whole. (A file cut short, read to its end, gives its tracks cut short.)
        if let fault = input.source.fault, fault.mayPass { failAll(.unreadable(fault)) }
        finishSinks(end)
        return jobs.map { job in
            TrackResult(job: job, outcome: outcomes[job]
                ?? .failure(.trackUnavailable(stream: job.streamIndex, reason: "not made")))
        }
    }

    // MARK: - Setting up

    /// Makes the sinks for the jobs of one stream: one decoding sink for its SubRip and WebVTT
    /// jobs, one sink for its VobSub pair, one reading sink for the text read from its pictures,
    /// one remuxing sink for each other job. A job whose sink cannot be made fails.
    private func makeSinks(for jobs: [TrackJob], streamIndex: Int) {
        guard let source = SourceStream(input: input, index: streamIndex) else {
            return fail(jobs, .trackUnavailable(stream: streamIndex, reason: "the file has \(input.streams.count) streams"))
        }
        var usable: [TrackJob] = []
        for job in jobs {
            if let problem = mismatch(job.output, source.codecParameters.pointee) {
                fail([job], .trackUnavailable(stream: streamIndex, reason: problem))
            } else {
                usable.append(job)
            }
        }
        let text = usable.filter { $0.output == .subtitleSRT || $0.output == .subtitleWebVTT }
        if !text.isEmpty {
            attempt(text) {
                try TextSubtitleSink(jobs: text, source: source, deadline: self.input.deadline)
            }
        }
        let vobSub = usable.filter { $0.output == .vobSubPictures || $0.output == .vobSubIndex }
        if !vobSub.isEmpty {
            attempt(vobSub) { try VobSubSink(jobs: vobSub, source: source) }
        }
        let read = usable.filter { $0.output == .subtitleSRTReadFromPictures || $0.output == .subtitleSRTReadFromPicturesForced }
        if !read.isEmpty {
            attempt(read) {
                try PictureTextSink(jobs: read, source: source, deadline: self.input.deadline, reading: self.reading)
            }
        }
        for job in usable where !text.contains(job) && !vobSub.contains(job) && !read.contains(job) {
            attempt([job]) {
                try RemuxSink(job: job, source: source, deadline: self.input.deadline)
            }
        }
    }

    /// Adds the sink `make` returns, or fails `jobs` with its error.
    private func attempt(_ jobs: [TrackJob], _ make: () throws -> TrackSink) {
        do {
            let sink = try make()
            sinks[jobs[0].streamIndex, default: []].append(sink)
        } catch {
            fail(jobs, error as? MediaError ?? .trackUnavailable(stream: jobs[0].streamIndex, reason: "\(error)"))
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
        case .vobSubPictures, .vobSubIndex:
            return parameters.codec_id == AV_CODEC_ID_DVD_SUBTITLE ? nil : "not DVD subtitles (\(codec))"
        case .subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced:
            return PictureTextSink.codecs.contains(parameters.codec_id) ? nil : "not picture subtitles (\(codec))"
        }
    }

    // MARK: - Outcomes

    func fail(_ jobs: [TrackJob], _ error: MediaError) {
        for job in jobs { outcomes[job] = .failure(error) }
    }

    /// Fails every sink still working with `error` and drops them (their temporary files go with them).
    func failAll(_ error: MediaError) {
        for sink in sinks.values.joined() { fail(sink.jobs, error) }
        sinks.removeAll()
    }

    /// Drops one sink that failed, and fails its jobs.
    func drop(_ sink: TrackSink, streamIndex: Int, _ error: MediaError) {
        fail(sink.jobs, error)
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
                fail(sink.jobs, .trackUnavailable(stream: sink.jobs[0].streamIndex,
                                                  reason: "the file is damaged before any of its data (\(cut))"))
                continue
            }
            do {
                for (job, outcome) in zip(sink.jobs, try sink.finishEach(end)) {
                    outcomes[job] = outcome
                }
            } catch {
                fail(sink.jobs, error as? MediaError ?? .trackUnavailable(stream: sink.jobs[0].streamIndex, reason: "\(error)"))
            }
        }
        sinks.removeAll()
    }
}
