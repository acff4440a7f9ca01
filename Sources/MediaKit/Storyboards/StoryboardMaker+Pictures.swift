import Dispatch
import Glibc
import Synchronization

/// Decoding the keyframes a sheet shows, in more than one session at once.
extension StoryboardMaker {
    /// A keyframe made into a tile: the picture, and the time of the frame decoded (the
    /// keyframe's, unless the decoder gave another, `DecodeSession.keyframe(at:in:)`).
    struct Picture: Sendable {
        var image: RGBImage
        var shown: Int64
    }

    /// What one run of keyframes gave: the pictures made, and the first failure met, if any.
    struct Decoded: Sendable {
        var pictures: [Int64: Picture]
        var firstFailure: MediaError?
    }

    /// Sessions decoding a sheet's keyframes side by side: one per processor, at most 2 (each
    /// decoder is single-threaded on a lone keyframe: slice threads help few streams, and x264
    /// writes one slice a frame).
    static let parallelSessions = min(2, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    /// Fewer keyframes than this are decoded in the one session (a second would cost its open).
    static let parallelFrom = 8

    /// `times` (keyframe times of `index`, ascending) as `width` × `height` upright pictures.
    /// The times are cut into `parallelSessions` runs, each decoded in time order by its own
    /// session on its own thread: `session` for the first, sessions of the same file and stream
    /// from the pool (else opened) for the others, returned to the pool when all went well.
    /// - Throws: `MediaError.timedOut` (or an error opening a second session); the first failure
    ///   met when no keyframe at all could be decoded.
    func pictures(of times: [Int64], session: DecodeSession, index: KeyframeIndex,
                  width: Int, height: Int) throws -> [Int64: Picture] {
        let runs = times.count >= Self.parallelFrom ? Self.parallelSessions : 1
        let size = (times.count + runs - 1) / max(1, runs)
        let planned = stride(from: 0, to: times.count, by: max(1, size)).map { Array(times[$0..<min(times.count, $0 + size)]) }
        // A run whose keyframes all fail leaves its tiles marked; all of them failing fails.
        // A second session only where its decoder fits in the pool's budget now (it never waits).
        var sessions = [session]
        var extra: DecodeSessionPool.Reservation?
        if planned.count > 1,
           let granted = pool.reserveIfFree((planned.count - 1) * session.memoryEstimate(threads: 1)) {
            extra = granted
            for _ in 1..<planned.count {
                if let kept = pool.checkOut(session.key, prefer: { _ in true }) {
                    kept.begin(limits: session.limits)
                    // Put to sleep by the pool (its decoder freed): woken, one thread beside the first.
                    if !kept.isAwake { try kept.wake(threads: 1) }
                    sessions.append(kept)
                } else {
                    sessions.append(try DecodeSession(key: session.key, limits: session.limits, probed: nil))
                }
            }
        }
        defer { if let extra { pool.release(extra) } }
        let chunks = sessions.count == 1 ? [times] : planned
        let results = Mutex<[Int: Result<Decoded, any Error>]>([:])
        // Each thread of the sheet uses its own session (`work[i]`), and only that one.
        let work = sessions
        DispatchQueue.concurrentPerform(iterations: chunks.count) { i in
            let outcome = Result { try Self.decode(chunks[i], in: work[i], index: index, width: width, height: height) }
            results.withLock { $0[i] = outcome }
        }
        var all: [Int64: Picture] = [:]
        var firstFailure: MediaError?
        for i in chunks.indices {
            guard let outcome = results.withLock({ $0[i] }) else { continue }
            let decoded = try outcome.get()
            all.merge(decoded.pictures) { first, _ in first }
            firstFailure = firstFailure ?? decoded.firstFailure
        }
        for helper in sessions.dropFirst() {
            Self.release(helper)
            pool.checkIn(helper)
        }
        if all.isEmpty, let firstFailure { throw firstFailure }
        return all
    }

    /// `times` decoded in time order in `session` (`DecodeSession.keyframe(at:in:)`) and made
    /// into tiles (`DecodeSession.uprightTile`). A keyframe that cannot be read or decoded for
    /// good (damaged, cut short) is left out, its tile marked (`unreadableTile`), and the next is
    /// sought afresh; only when none could be decoded does the caller hear of it
    /// (`Decoded.firstFailure`). A failure that may pass (`MediaError.mayPass`: a read that
    /// failed, the time bound) is thrown: nothing made through it is to be kept.
    static func decode(_ times: [Int64], in session: DecodeSession, index: KeyframeIndex,
                       width: Int, height: Int) throws -> Decoded {
        var made: [Int64: Picture] = [:]
        var firstFailure: MediaError?
        let scaler = TileScaler()
        for time in times {
            do {
                let frame = try session.keyframe(at: time, in: index)
                made[time] = Picture(image: try session.uprightTile(of: frame, width: width, height: height, scaler: scaler),
                                     shown: frame.pts)
            } catch let failure as MediaError {
                let failure = session.cause(of: failure)
                if failure.mayPass { throw failure }
                firstFailure = firstFailure ?? failure
                session.needsSeek = true
            }
        }
        return Decoded(pictures: made, firstFailure: firstFailure)
    }
}
