import CAV
import SystemPackage

/// Finds the hard cuts of a film's video, each to the frame, decoding as little as it can.
///
/// 1. `StreamSurvey`: every packet demuxed once (times, sizes, keyframe flags) and every
///    keyframe decoded alone into a small `PictureSignature`.
/// 2. A group of pictures (a keyframe up to the next) may hold a cut where the keyframes either
///    side differ (`changed`; the last group has none after it), or where a packet inside is much
///    larger than the others of its kind around it (a cut without a keyframe makes a mostly
///    intra-coded P-frame: `spike`). Any other group is continuous.
/// 3. Each group that may hold one is decoded from its keyframe (`groupSignatures`). Where only
///    the sizes hint: reference frames alone up to a few frames before the spike, every frame
///    from there. Where the keyframes differ, the next one periodic (the stream's longest
///    interval, met more than once: a fixed GOP), with a spike: every frame, in one pass (its
///    reference frames, which cost most, decoded once). Where they differ otherwise (without a
///    spike, or the next keyframe placed early, where sizes hint less than its placing): first
///    its reference frames alone (`AVDISCARD_NONREF`, about half of them), with the next keyframe
///    after them (`suspectedCuts`); nothing more where no step between them stands out (motion);
///    the cut at the next keyframe where the step into it stands out and the encoder placed it
///    early (its scene-cut detection puts the keyframe at a cut's first frame, as x264, x265,
///    libvpx and the hardware encoders do; a periodic one proves nothing); else every frame from
///    the reference frame before the step. `request.pause()` runs between groups.
/// 4. `CutRule` picks the cuts among the steps between consecutive frames decoded.
/// 5. `EndCredits` looks among the keyframes' tones for credits on black at the end.
struct SceneDetector {
    let file: MediaFile
    let request: AnalysisRequest
    let probed: ProbedInputs?
    /// Whose budget of decoders at work its decoder counts in (the memory bound), where given.
    var pool: DecodeSessionPool?
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
        if request.yields { session.sleep() }
        let pictures = PictureMaker()
        let survey = try decoding(session) { share in
            try StreamSurvey(session, pictures: pictures, share: share) { request.progress(0.3 * $0) }
        }
        var signatures = survey.signatures
        let keys = survey.keyframes
        var cost = Cost(frames: survey.times.count, groups: keys.count)
        // The encoder's periodic keyframes: its longest interval, met again and again. A longest
        // interval met once is a shot's (a film whose shots are all shorter than the encoder's
        // interval), its next keyframe placed at a cut.
        let intervals = zip(keys, keys.dropFirst()).map { $1 - $0 }
        let longest = intervals.max() ?? 0
        let periodic = intervals.count(where: { $0 == longest }) > 1 ? longest : .max
        var placed: [(frame: Int, strength: Double)] = []
        for (j, key) in keys.enumerated() {
            try request.pause()
            try session.input.deadline.check()
            let end = j + 1 < keys.count ? keys[j + 1] - 1 : survey.times.count - 1
            guard end > key else { continue }
            let next = j + 1 < keys.count ? keys[j + 1] : nil
            // The last group has no keyframe after it to tell: it may hold a cut.
            let differs = next.map { survey.signatures[key]!.distance(to: survey.signatures[$0]!) >= changed } ?? true
            let spiked = spikes(in: key + 1...end, survey)
            guard differs || !spiked.isEmpty else { continue }
            var exactFrom = differs ? key : max(key, spiked.min()! - 4)
            // Placed early, the next keyframe is most likely at the cut: its reference frames are
            // likely all it takes, whatever the sizes hint (a film's sizes may rise and fall at
            // every other frame, as where its frames were doubled).
            let placedEarly = next.map { $0 - key < periodic } ?? false
            if spiked.isEmpty || (differs && placedEarly) {
                // Keyframes apart and no hint where: its reference frames first (about half of
                // them), then every frame only from the reference frame before a step between
                // them (or into the next keyframe) that stands out. To the group's end: a second
                // cut in it may not stand out among its reference frames (a cut into a picture
                // that changes at every frame), as it does among all of them.
                var references = try decoding(session) { share in
                    try session.groupSignatures(key...end, exactFrom: end, survey: survey, pictures: pictures, share: share)
                }
                cost.groupsDecoded += 1
                if let next { references[next] = survey.signatures[next]! }
                guard let suspect = suspectedCuts(among: references).first else { continue }
                if let next, suspect.frame == next, placedEarly {
                    // Into a keyframe its encoder placed early (from the frame before it, decoded
                    // whole): its scene-cut detection put it at the cut's first frame.
                    placed.append((next, suspect.strength))
                    continue
                }
                exactFrom = suspect.before
            }
            let found = try decoding(session) { share in
                try session.groupSignatures(key...end, exactFrom: exactFrom, survey: survey, pictures: pictures, share: share)
            }
            signatures.merge(found) { kept, _ in kept }
            cost.groupsDecoded += 1
            request.progress(0.3 + 0.7 * Double(j + 1) / Double(keys.count))
        }
        var steps: [Int: Double] = [:]
        for (frame, signature) in signatures where frame > 0 {
            if let before = signatures[frame - 1] { steps[frame] = signature.shiftedDistance(to: before) }
        }
        let found = rule.cuts(in: steps)
        let cuts = (found + placed.filter { cut in !found.contains { $0.frame == cut.frame } }).sorted { $0.frame < $1.frame }.map { cut in
            SceneCut(seconds: session.thumbnailSeconds(forPts: survey.times[cut.frame]), frame: cut.frame,
                     strength: cut.strength)
        }
        let duration = session.seconds(forPts: survey.times.last! + session.frameDuration)
        let seconds = { (frame: Int) in session.thumbnailSeconds(forPts: survey.times[frame]) }
        let credits = try EndCredits().find(in: survey, duration: duration, seconds: seconds) { group in
            try decoding(session) { share in
                try session.groupPictures(group, exactFrom: group.lowerBound, survey: survey, pictures: pictures,
                                          share: share) { PictureTone(of: $0) }
            }
        }
        let endCredits = credits.map { found in
            MediaSegment(kind: .credits, start: seconds(found.start), end: found.end.map(seconds) ?? duration,
                         foundBy: .textOnBlack, sharedWith: 0)
        }
        cost.decoded = pictures.decoded
        let list = SceneList(cuts: cuts, frames: survey.times.count, duration: duration, endCredits: endCredits.map { [$0] } ?? [])
        return (list, cost)
    }

    /// Runs `body` with the session's decoder awake and its share of the budget taken
    /// (`DecoderShare`), given back when it is done; again from its start where it stepped aside
    /// part way (`DecoderShare.SteppedAside`).
    private func decoding<Value>(_ session: DecodeSession, _ body: (DecoderShare) throws -> Value) throws -> Value {
        let share = DecoderShare(session: session, request: request, pool: pool)
        try share.take()
        defer { share.giveBack() }
        while true {
            do {
                return try body(share)
            } catch is DecoderShare.SteppedAside {
                try share.stepAside()
            }
        }
    }

    /// Where cuts may be among frames decoded apart (a group's reference frames, by number): the
    /// steps between two of them that `rule` would take for a cut, in order, as the frames either
    /// side and its strength.
    func suspectedCuts(among decoded: [Int: PictureSignature]) -> [(before: Int, frame: Int, strength: Double)] {
        let frames = decoded.keys.sorted()
        guard frames.count >= 2 else { return [] }
        var steps: [Int: Double] = [:]
        for i in 1..<frames.count { steps[i] = decoded[frames[i]]!.shiftedDistance(to: decoded[frames[i - 1]]!) }
        return rule.cuts(in: steps).map { (frames[$0.frame - 1], frames[$0.frame], $0.strength) }
    }

    /// The frames of `range` whose packets are `spike` times the packets within twelve frames
    /// either side, keyframes left out (they are large anyway): times the fifth largest of them,
    /// which is about a P-frame's size where B-frames (several times smaller) lie between, so that
    /// a frame stands out among the frames of its own type: a frame after a cut coded without a
    /// keyframe is mostly intra-coded.
    func spikes(in range: ClosedRange<Int>, _ survey: StreamSurvey) -> [Int] {
        let keys = Set(survey.keyframes)
        return range.filter { frame in
            let around = (max(0, frame - 12)...min(survey.sizes.count - 1, frame + 12))
                .filter { $0 != frame && !keys.contains($0) }.map { survey.sizes[$0] }.sorted()
            guard !around.isEmpty else { return false }
            return Double(survey.sizes[frame]) >= spike * Double(max(1, around[max(0, around.count - 5)]))
        }
    }

    /// A session on the file's first video stream that moves, its decoder with `request.threads`
    /// threads, bounded by `request.timeout` for the whole analysis.
    func openSession() throws -> DecodeSession {
        let input = try InputFile.open(file.path, timeout: request.timeout, takingFrom: probed)
        // Every packet with its presentation time, worked out from the decoding times where the
        // container gives none (AVI): the frames then carry the times that number them, the last
        // one the decoder gives out included.
        input.context.pointee.flags |= AVFMT_FLAG_GENPTS
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
