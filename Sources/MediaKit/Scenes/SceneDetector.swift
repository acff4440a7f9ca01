import CAV
import SystemPackage

/// Finds the hard cuts of a film's video, each to the frame, decoding as little as it can.
///
/// 1. `StreamSurvey`: every packet demuxed once (times, sizes, keyframe flags) and every
///    keyframe decoded alone into a small `PictureSignature`.
/// 2. A group of pictures (a keyframe up to the next) may hold a cut where the keyframes either
///    side differ (`changed`), or where a packet inside is much larger than those around it (a
///    cut without a keyframe makes a large P-frame: `spike`). Any other group is continuous.
/// 3. Each group that may hold one is decoded from its keyframe (`groupSignatures`): every frame
///    where the keyframes differ; only reference frames up to a few frames before a spike
///    where only the sizes hint. `request.pause()` runs between groups.
/// 4. `CutRule` picks the cuts among the steps between consecutive frames decoded.
struct SceneDetector {
    let file: MediaFile
    let request: AnalysisRequest
    let probed: ProbedInputs?
    /// Keyframes further apart than this (`PictureSignature.distance`) may have a cut between.
    var changed = 0.02
    /// A packet this many times the median of its neighbours' is a spike.
    var spike = 3.0
    var rule = CutRule()

    /// What the analysis cost, for tests and the bench.
    struct Cost: Sendable {
        var frames = 0
        var decoded = 0
        var groups = 0
        var groupsDecoded = 0
    }

    func run() throws -> (SceneList, Cost) {
        let session = try openSession()
        let pictures = PictureMaker()
        let survey = try StreamSurvey(session, pictures: pictures) { request.progress(0.3 * $0) }
        var signatures = survey.signatures
        let keys = survey.keyframes
        var cost = Cost(frames: survey.times.count, groups: keys.count)
        for (j, key) in keys.enumerated() {
            try request.pause()
            try session.input.deadline.check()
            let end = j + 1 < keys.count ? keys[j + 1] - 1 : survey.times.count - 1
            guard end > key else { continue }
            let differs = j + 1 < keys.count && survey.signatures[key]!.distance(to: survey.signatures[keys[j + 1]]!) >= changed
            let spiked = spikes(in: key + 1...end, survey)
            guard differs || !spiked.isEmpty else { continue }
            let exactFrom = differs ? key : max(key, spiked.min()! - 4)
            let found = try session.groupSignatures(key...end, exactFrom: exactFrom, survey: survey, pictures: pictures)
            signatures.merge(found) { kept, _ in kept }
            cost.groupsDecoded += 1
            request.progress(0.3 + 0.7 * Double(j + 1) / Double(keys.count))
        }
        cost.decoded = pictures.decoded
        var steps: [Int: Double] = [:]
        for (frame, signature) in signatures where frame > 0 {
            if let before = signatures[frame - 1] { steps[frame] = signature.shiftedDistance(to: before) }
        }
        let cuts = rule.cuts(in: steps).map { cut in
            SceneCut(seconds: session.thumbnailSeconds(forPts: survey.times[cut.frame]), frame: cut.frame,
                     strength: cut.strength)
        }
        let end = survey.times.last! + session.frameDuration
        return (SceneList(cuts: cuts, frames: survey.times.count, duration: session.seconds(forPts: end)), cost)
    }

    /// The frames of `range` whose packets are `spike` times the median of the packets within
    /// twelve frames either side (keyframes left out: they are large anyway).
    func spikes(in range: ClosedRange<Int>, _ survey: StreamSurvey) -> [Int] {
        let keys = Set(survey.keyframes)
        return range.filter { frame in
            let around = (max(0, frame - 12)...min(survey.sizes.count - 1, frame + 12))
                .filter { $0 != frame && !keys.contains($0) }.map { survey.sizes[$0] }.sorted()
            guard !around.isEmpty else { return false }
            return Double(survey.sizes[frame]) >= spike * Double(max(1, around[around.count / 2]))
        }
    }

    /// A session on the file's first video stream that moves, its decoder with `request.threads`
    /// threads, bounded by `request.timeout` for the whole analysis.
    private func openSession() throws -> DecodeSession {
        let input = try InputFile.open(file.path, timeout: request.timeout, takingFrom: probed)
        guard let stream = input.streams.first(where: {
            $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }) else { throw MediaError.noVideoStream(index: 0) }
        // The file opened here goes to the session, not opened twice.
        let handOver = ProbedInputs(capacity: 1, lifetime: max(5, request.timeout))
        if let version = FileIdentity(path: file.path) { handOver.keep(input, version: version) }
        let limits = ThumbnailLimits(timeout: request.timeout, maxDecodedFrames: .max / 2)
        let key = DecodeSession.Key(file: file, streamIndex: Int(stream.pointee.index), pick: .exact)
        let session = try DecodeSession(key: key, limits: limits, probed: handOver, threads: max(1, request.threads))
        session.input.deadline.restart(seconds: request.timeout)
        return session
    }
}

extension DecodeSession {
    /// `seconds(forPts:)`, moved up by a microsecond where rounding put it before `pts`: a
    /// thumbnail at the time given is then the frame presented at `pts`, not the one before.
    func thumbnailSeconds(forPts pts: Int64) -> Double {
        let rounded = seconds(forPts: pts)
        return self.pts(forSeconds: rounded) >= pts ? rounded : Prober.microseconds(rounded + 0.000_001)
    }
}
