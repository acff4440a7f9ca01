import CAV

/// Writes a DVD subtitle stream as VobSub's pair of files, the `.sub` of MPEG-2 packs and its
/// `.idx` index, as `mkvextract tracks N:film.idx` writes them from a Matroska file
/// (`VobSubPacking`): the packets are copied without decoding, their times shifted to the
/// file's start as every track output's are. Takes the stream's `.vobSubPictures` and
/// `.vobSubIndex` jobs, either or both: the index needs the positions the pictures would have,
/// which it counts whether the `.sub` is written or not.
final class VobSubSink: TrackSink {
    let jobs: [TrackJob]
    private(set) var packetsSeen = 0
    private let source: SourceStream
    private let pictures: (file: PendingFile, output: AppendingFile)?
    private let index: PendingFile?
    private let language: String
    private var entries: [(nanoseconds: Int64, position: Int64)] = []
    /// Bytes the `.sub` holds so far (written or only counted).
    private var position: Int64 = 0
    private var skipped = 0

    /// - Parameter jobs: the stream's VobSub jobs, at most one of each output.
    /// - Throws: `MediaError.output`, `.trackUnavailable` (no VobSub job).
    init(jobs: [TrackJob], source: SourceStream) throws {
        let pictureJob = jobs.first { $0.output == .vobSubPictures }
        let indexJob = jobs.first { $0.output == .vobSubIndex }
        guard pictureJob != nil || indexJob != nil else {
            throw MediaError.trackUnavailable(stream: source.index, reason: "no VobSub output asked")
        }
        self.jobs = [pictureJob, indexJob].compactMap { $0 }
        self.source = source
        language = VobSubPacking.indexLanguage((indexJob ?? pictureJob)!.language)
        if let pictureJob {
            let file = try PendingFile(finalPath: pictureJob.path)
            pictures = (file, try AppendingFile(path: file.temporaryPath))
        } else {
            pictures = nil
        }
        index = try indexJob.map { try PendingFile(finalPath: $0.path) }
    }

    /// Packs the packet's SPU at its time (shifted to the file's start, in nanoseconds), its stop
    /// date set from the packet's duration (`VobSubPacking.withDuration`). A packet without a
    /// time, or of fewer than 4 bytes (mkvextract leaves those out), is left out and counted.
    func consume(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        packetsSeen += 1
        let none = cav_nopts_value()
        let time = packet.pointee.pts != none ? packet.pointee.pts : packet.pointee.dts
        guard time != none, packet.pointee.size >= 4, let data = packet.pointee.data else {
            skipped += 1
            return
        }
        let nanosecond = AVRational(num: 1, den: 1_000_000_000)
        let nanoseconds = av_rescale_q(time - source.offset, source.timeBase, nanosecond)
        let duration = packet.pointee.duration > 0 ? av_rescale_q(packet.pointee.duration, source.timeBase, nanosecond) : nil
        let spu = VobSubPacking.withDuration(Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))),
                                             nanoseconds: duration)
        let packed = VobSubPacking.packs(of: spu, nanoseconds: nanoseconds)
        entries.append((nanoseconds, position))
        position += Int64(packed.count)
        try pictures?.output.append(packed)
    }

    func finish(_ end: PassEnd) throws -> [ExtractedTrack] {
        var made: [ExtractedTrack] = []
        if let pictures {
            try pictures.output.finish()
            made.append(ExtractedTrack(path: pictures.file.finalPath, size: try pictures.file.commit(), units: entries.count,
                                       skippedPackets: skipped, cutShort: end.cutShort))
        }
        if let index {
            let output = try AppendingFile(path: index.temporaryPath)
            let parameters = source.codecParameters.pointee
            let extradata = parameters.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(parameters.extradata_size))) } ?? []
            try output.append(Array(VobSubPacking.index(extradata: extradata, language: language, entries: entries).utf8))
            try output.finish()
            made.append(ExtractedTrack(path: index.finalPath, size: try index.commit(), units: entries.count,
                                       skippedPackets: skipped, cutShort: end.cutShort))
        }
        return made
    }
}
