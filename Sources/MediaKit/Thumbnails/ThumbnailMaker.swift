import Synchronization

/// Makes thumbnails: takes a decode session for the file and stream (a kept one when it can
/// continue, else a new one), picks the frame, scales it (tone-mapping HDR) and turns it, and
/// writes the PNG or JPEG.
/// Safe to call from many threads at once; each call uses its own session.
final class ThumbnailMaker: Sendable {
    let limits: ThumbnailLimits
    let pool: DecodeSessionPool
    /// Files just probed, which a new session takes rather than open its file again.
    let probed: ProbedInputs?
    private let counters = Mutex(ThumbnailStatistics())

    /// - Parameter sessionLifetime: seconds an idle decode session is kept (`DecodeSessionPool`).
    init(limits: ThumbnailLimits, sessionCapacity: Int,
         sessionLifetime: Double = DecodeSessionPool.defaultIdleLifetime,
         idleBudget: Int = DecodeSessionPool.defaultIdleBudget, busyBudget: Int = DecodeSessionPool.defaultBusyBudget,
         probed: ProbedInputs? = nil) {
        self.limits = limits
        self.pool = DecodeSessionPool(capacity: sessionCapacity, idleLifetime: sessionLifetime,
                                      idleBudget: idleBudget, busyBudget: busyBudget)
        self.probed = probed
    }

    /// What the work has cost so far, for tests and diagnostics.
    var statistics: ThumbnailStatistics { counters.withLock { $0 } }

    /// - Throws: `MediaError` (see `MediaService.thumbnail(of:request:)`).
    func make(file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
        guard request.width >= 1, request.height >= 1,
              request.width <= ImageEncoder.maximumSide, request.height <= ImageEncoder.maximumSide else {
            throw MediaError.imageFailed(reason: "a thumbnail of \(request.width)x\(request.height) pixels")
        }
        guard request.time.isFinite else {
            throw MediaError.noFrame(time: request.time, reason: "not a time")
        }
        let key = DecodeSession.Key(file: file, streamIndex: request.streamIndex, pick: request.pick)
        let session: DecodeSession
        var opened = false
        if let kept = pool.checkOut(key, prefer: { $0.canContinue(to: $0.pts(forSeconds: request.time)) }) {
            session = kept
            session.begin(limits: limits)
        } else {
            session = try DecodeSession(key: key, limits: limits, probed: probed, threads: nil)
            opened = true
        }
        defer {
            let cost = (session.seeks, session.framesDecoded)
            counters.withLock {
                $0.sessionsOpened += opened ? 1 : 0
                $0.seeks += cost.0
                $0.framesDecoded += cost.1
                $0.requests += 1
            }
        }
        // The decoder's memory is reserved before it is opened (or, kept, used): past the pool's
        // budget for sessions decoding at once, this waits for others to finish.
        // A sleeping session reserves a one-thread decoder, what it gets beside others; alone it
        // gets frame threads and grows its reservation past the budget if need be.
        var reservation = try pool.reserve(session.memoryEstimate(threads: session.isAwake ? nil : 1),
                                           deadline: session.input.deadline)
        let upright: RGBImage, frameTime: Double, isKeyframe: Bool
        do {
            if !session.isAwake {
                try session.wake(under: reservation)
                reservation = pool.resize(reservation, to: session.memoryEstimate())
            }
            let frame = request.pick == .exact
                ? try session.exactFrame(at: request.time)
                : try session.nearestKeyframe(to: request.time)
            let turns = session.clockwiseQuarterTurns
            let (width, height) = turns % 2 == 1 ? (request.height, request.width) : (request.width, request.height)
            upright = try session.converter.picture(of: frame, width: width, height: height).rotated(clockwiseQuarterTurns: turns)
            frameTime = session.seconds(forPts: frame.pts)
            isKeyframe = frame.isKeyframe
        } catch {
            // A session that failed is closed, not returned: its position and demuxer state are
            // not to be trusted. Its decoder goes first, within the reservation.
            session.sleep()
            pool.release(reservation)
            throw (error as? MediaError).map(session.cause(of:)) ?? error
        }
        pool.checkIn(session)
        pool.release(reservation)
        let luma = upright.meanLuma
        switch request.format {
        case .png:
            return Thumbnail(bytes: try PNGEncoder.encode(upright), format: .png, frameTime: frameTime,
                             isKeyframe: isKeyframe, meanLuma: luma)
        case .jpeg:
            let jpeg = try JPEGEncoder.encode(upright, budget: request.jpegBudget)
            return Thumbnail(bytes: jpeg.bytes, format: .jpeg, frameTime: frameTime, isKeyframe: isKeyframe,
                             meanLuma: luma, jpegQuality: jpeg.quality)
        }
    }
}

/// Counts of the work done for thumbnails since the service was made.
struct ThumbnailStatistics: Sendable, Equatable {
    var requests = 0
    var sessionsOpened = 0
    var seeks = 0
    var framesDecoded = 0
}
