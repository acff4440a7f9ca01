import Glibc

/// An analysis's video decoder's share of the budget of decoders at work (`DecodeSessionPool`),
/// as a thumbnail's decoder takes one: the memory bound counts it. A request that yields (the
/// background's, `AnalysisRequest.yields`) takes its share only where it is free, pausing
/// meanwhile, and steps aside (its decoder freed, its share given back) where another waits for
/// one: a paused analysis holds no decoder, and keeps no request waiting for the budget.
final class DecoderShare {
    let session: DecodeSession
    let request: AnalysisRequest
    let pool: DecodeSessionPool?
    private var reservation: DecodeSessionPool.Reservation?

    init(session: DecodeSession, request: AnalysisRequest, pool: DecodeSessionPool?) {
        self.session = session
        self.request = request
        self.pool = pool
    }

    private var threads: Int { max(1, request.threads) }

    /// Takes the share and wakes the decoder.
    /// - Throws: `MediaError.timedOut`, or what the request's pause throws.
    func take() throws {
        if let pool, reservation == nil {
            let bytes = session.memoryEstimate(threads: threads)
            if request.yields {
                while reservation == nil {
                    reservation = pool.reserveIfFree(bytes, yields: true)
                    if reservation == nil {
                        try request.pause()
                        try session.input.deadline.check()
                        usleep(20_000)
                    }
                }
            } else {
                reservation = try pool.reserve(bytes, deadline: session.input.deadline)
            }
        }
        try session.wake(threads: threads)
    }

    /// Gives the share back; the decoder of a request that yields is freed.
    func giveBack() {
        if request.yields { session.sleep() }
        if let reservation { pool?.release(reservation) }
        reservation = nil
    }

    /// Whether a request that yields should step aside now: another waits for a share.
    var othersWait: Bool { request.yields && (pool?.waiting ?? 0) > 0 }

    /// Between two packets of a unit of decoding: for a request that yields, steps aside where
    /// another waits for a share, and otherwise holds still while reads are being served
    /// (`AnalysisRequest.isBusy`), its decoder and share kept: its unit goes on where it was once
    /// they are done, and a read does not share the processors with it meanwhile.
    /// - Throws: `SteppedAside` where another comes to wait for a share; what `isBusy` throws.
    func holdWhileBusy() throws {
        guard request.yields else { return }
        while true {
            if othersWait { throw SteppedAside() }
            guard try request.isBusy() else { return }
            usleep(2_000)
        }
    }

    /// Thrown by a unit of decoding that stepped aside part way (a group of pictures): it is done
    /// again from its start once the share is back (`SceneDetector.decoding`).
    struct SteppedAside: Error {}

    /// Steps aside and comes back: gives the share back, pauses, takes it again.
    func stepAside() throws {
        giveBack()
        try request.pause()
        try take()
    }
}
