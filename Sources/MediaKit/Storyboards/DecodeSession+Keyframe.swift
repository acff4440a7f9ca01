import CAV

/// Decoding one listed keyframe (`KeyframeIndex`), for storyboards and contact sheets.
extension DecodeSession {
    /// The keyframe presented at `time` (a time of the stream's `KeyframeIndex`), decoding
    /// keyframes only (`AVDISCARD_NONKEY`).
    ///
    /// When the session's last answer was the keyframe just before it in `index`, decoding goes
    /// on from there (the packets between are read, not decoded); otherwise the file is sought
    /// to `time` with `AVSEEK_FLAG_BACKWARD` (landing on it, or on a keyframe before it). The
    /// answer is the first keyframe decoded whose time is at or after `time`: the one asked
    /// for, where the decoder's times agree with the demuxer's, which they do for every format
    /// the tests cover; else the next one, or the last keyframe of a stream that ends before.
    ///
    /// Where the seek lands past every keyframe it should find (MPEG program streams land after
    /// the keyframe the time names, and the decoder then gives none), the stream is read again
    /// from the keyframe before it in `index`, and at last from its start.
    /// - Throws: `MediaError.noFrame` when no keyframe can be decoded there, `.damaged`, `.timedOut`.
    func keyframe(at time: Int64, in index: KeyframeIndex, skipsLoopFilter: Bool = true) throws -> Frame {
        let continues = !needsSeek && shown.map { index.next(after: $0.pts) == time } == true
        let earlier = index.times.last { $0 < time }
        var starts: [Int64?] = [continues ? nil : time]
        if let earlier { starts.append(earlier) }
        starts.append(startPts)
        var failure: Error?
        for start in starts {
            do {
                return try keyframe(at: time, seekingTo: start, skipsLoopFilter: skipsLoopFilter)
            } catch let error as MediaError {
                guard case .noFrame = error else { throw error }
                failure = error
            }
        }
        throw failure!
    }

    /// `keyframe(at:in:)` from where the session is (`start` nil) or after a seek to `start`.
    private func keyframe(at time: Int64, seekingTo start: Int64?, skipsLoopFilter: Bool) throws -> Frame {
        decoder.keyframesOnly = true
        let skips = skipsLoopFilter && decoder.context.pointee.codec_id == AV_CODEC_ID_H264
        decoder.context.pointee.skip_loop_filter = skips ? AVDISCARD_ALL : AVDISCARD_DEFAULT
        if let start { try seek(to: start) }
        needsSeek = true
        var last: Frame?
        while let frame = try decodeNextShowable() {
            guard frame.isKeyframe else { continue }
            if frame.pts >= time {
                shown = frame
                next = nil
                // The position is good for the next keyframe in file order.
                needsSeek = false
                return frame
            }
            last = frame
        }
        guard let last else {
            if let code = readError {
                throw MediaError.noFrame(time: seconds(forPts: time),
                                         reason: "the stream cannot be read from there (\(averrorText(code))); the file may be truncated")
            }
            throw MediaError.noFrame(time: seconds(forPts: time), reason: "no keyframe can be decoded there")
        }
        return last
    }
}

extension DecodeSession {
    /// `frame` as an upright `width` × `height` RGB picture (the size after the display
    /// matrix's turn): scaled, tone-mapped if HDR (`PictureConverter`), then turned.
    /// - Throws: `MediaError.imageFailed`, `.library` (the tone mapper's graph).
    func uprightPicture(of frame: Frame, width: Int, height: Int) throws -> RGBImage {
        let turns = clockwiseQuarterTurns
        let (w, h) = turns % 2 == 1 ? (height, width) : (width, height)
        return try converter.picture(of: frame, width: w, height: h).rotated(clockwiseQuarterTurns: turns)
    }

    /// `frame` as an upright `width` × `height` tile: as `uprightPicture`, but an SDR frame is
    /// scaled by `scaler` (two steps, cheaper for a large shrink); HDR ones are tone-mapped by the
    /// session's converter, as thumbnails.
    func uprightTile(of frame: Frame, width: Int, height: Int, scaler: TileScaler) throws -> RGBImage {
        guard converter.toneMappedColor(of: frame) == nil else {
            return try uprightPicture(of: frame, width: width, height: height)
        }
        let turns = clockwiseQuarterTurns
        let (w, h) = turns % 2 == 1 ? (height, width) : (width, height)
        return try scaler.scale(frame, width: w, height: h).rotated(clockwiseQuarterTurns: turns)
    }
}
