import CAV

/// Makes storyboard sheets and contact sheets: takes a decode session for the file and stream
/// (a kept one, else a new one), the stream's keyframe index (kept, else demuxed once), decodes
/// the keyframes the tiles show (keyframes only), scales them (tone-mapping HDR, as thumbnails)
/// and turns them upright, composes the sheet and writes it at its exact length.
/// Safe to call from many threads at once; each call uses its own session. Its copies share the
/// pool, the probed files and the keyframe indexes.
struct StoryboardMaker: Sendable {
    /// The bounds of thumbnails, for the failures in a row a sheet may meet.
    let limits: ThumbnailLimits
    /// Seconds one sheet may take, the keyframe scan (once per file version) and the decoding
    /// each counted from their start; past it, `MediaError.timedOut`.
    let timeout: Double
    /// The thumbnails' pool: sessions for nearest keyframes serve both.
    let pool: DecodeSessionPool
    let probed: ProbedInputs?
    let keyframes = KeyframeIndexCache()

    /// Sheet `sheet` (0-based) of the storyboard `request` describes, in its format, exactly
    /// `StoryboardLayout.encodedSize(sheet:)` bytes (`tilePictures(for:of:request:)`).
    /// - Throws: `MediaError` (see `MediaService.storyboardSheet(of:request:sheet:)`).
    func sheet(of file: MediaFile, request: StoryboardRequest, sheet: Int) throws -> [UInt8] {
        guard let layout = StoryboardLayout(request) else {
            throw MediaError.imageFailed(reason: "no storyboard layout for \(request)")
        }
        guard (0..<layout.sheetCount).contains(sheet) else {
            throw MediaError.imageFailed(reason: "no sheet \(sheet + 1) in a storyboard of \(layout.sheetCount)")
        }
        let size = layout.sheetSize(sheet)
        var canvas = RGBImage(width: size.width, height: size.height, color: (0, 0, 0))
        for (tile, picture) in try tilePictures(for: layout.tiles(inSheet: sheet).map(layout.tile), of: file, request: request) {
            canvas.draw(picture, x: tile.x, y: tile.y)
        }
        return try ImageEncoder.encode(canvas, format: request.format, budget: layout.jpegBudget(sheet: sheet))
    }

    /// Each tile's picture: the keyframe nearest the start of its interval
    /// (`KeyframeIndex.nearest(to:)`: the closest by presentation time, the earlier of two equally
    /// close), or, where that keyframe cannot be read or decoded for good (a damaged file, one cut
    /// short before it), the tile that says so (`unreadableTile`), never a neighbour. A keyframe
    /// shown by several tiles is decoded once, and the keyframes are decoded in time order by
    /// `parallelSessions` sessions side by side (`pictures(of:session:index:width:height:)`).
    /// - Throws: `MediaError` (see `MediaService.storyboardSheet(of:request:sheet:)`); a read that
    ///   failed (`MediaError.mayPass`) fails the whole.
    func tilePictures(for tiles: [StoryboardTile], of file: MediaFile,
                      request: StoryboardRequest) throws -> [(StoryboardTile, RGBImage)] {
        try withSession(file, streamIndex: request.streamIndex, frames: tiles.count) { session, index in
            let chosen = tiles.map { index.nearest(to: session.pts(forSeconds: $0.time)) }
            let times = Array(Set(chosen.compactMap { $0 })).sorted()
            let (width, height) = (request.tileWidth, request.tileHeight)
            let pictures = try pictures(of: times, session: session, index: index, width: width, height: height)
            return zip(tiles, chosen).map { tile, time in
                (tile, time.flatMap { pictures[$0]?.image } ?? Self.unreadableTile(width: width, height: height))
            }
        }
    }

    /// Runs `body` with a session for `streamIndex` of `file` and the stream's keyframe index,
    /// then returns the session to the pool (a session that failed is closed instead).
    /// - Parameter frames: how many keyframes `body` means to decode, for the bound on frames.
    /// - Throws: what opening, scanning or `body` throws; `MediaError.noFrame` for a stream
    ///   without a keyframe.
    func withSession<T>(_ file: MediaFile, streamIndex: Int, frames: Int,
                        _ body: (DecodeSession, KeyframeIndex) throws -> T) throws -> T {
        let key = DecodeSession.Key(file: file, streamIndex: streamIndex, pick: .nearestKeyframe)
        let bounds = ThumbnailLimits(timeout: timeout, maxDecodedFrames: limits.maxDecodedFrames + 4 * frames,
                                     maxFailuresInARow: limits.maxFailuresInARow, forwardWindow: 0)
        let session: DecodeSession
        if let kept = pool.checkOut(key, prefer: { _ in true }) {
            session = kept
            session.begin(limits: bounds)
        } else {
            session = try DecodeSession(key: key, limits: bounds, probed: probed)
        }
        // Its decoder counts in the pool's budget of decoders working at once, as a thumbnail's
        // does; a kept session the pool put to sleep (decoder freed) is woken within it.
        let reservation = try pool.reserve(session.memoryEstimate(threads: session.isAwake ? nil : 1),
                                           deadline: session.input.deadline)
        defer { pool.release(reservation) }
        if !session.isAwake { try session.wake(under: reservation) }
        let indexKey = KeyframeIndexCache.Key(file: file, streamIndex: streamIndex)
        let index: KeyframeIndex
        if let kept = keyframes.index(for: indexKey) {
            index = kept
        } else {
            index = try KeyframeIndex.scan(session)
            keyframes.keep(index, for: indexKey)
            session.begin(limits: bounds)
        }
        guard !index.times.isEmpty else {
            throw MediaError.noFrame(time: 0, reason: "the video stream has no keyframe")
        }
        let result = try body(session, index)
        Self.release(session)
        pool.checkIn(session)
        return result
    }

    /// Leaves `session` as thumbnails expect it: every frame decoded, loop filter on, sought anew.
    static func release(_ session: DecodeSession) {
        session.decoder.keyframesOnly = false
        session.decoder.context.pointee.skip_loop_filter = AVDISCARD_DEFAULT
        session.needsSeek = true
    }
}
