import CAV
import Dispatch
import Foundation
@testable import MediaKit
import Synchronization
import Testing
import TestSupport

/// The decoders' memory: the estimate, the budget of sessions decoding at once, and idle
/// sessions past their budget put to sleep.
@Suite struct DecodeMemoryTests {
    /// A 1080p 4:2:0 frame as libavcodec allocates it, with a third for the codec's tables; the
    /// frames a session holds.
    @Test func estimateOfA1080pDecoder() {
        let frame = DecodeMemory.frameBytes(width: 1920, height: 1080, format: AV_PIX_FMT_YUV420P)
        #expect(frame == 1920 * 1104 * 3 / 2 * 4 / 3)
        // 1 reference, 2 reordered, 2 per frame thread, 3 of the session's.
        #expect(DecodeMemory.frames(references: 1, delay: 2, threads: 2, threading: .frames) == 10)
        #expect(DecodeMemory.frames(references: 1, delay: 2, threads: 2, threading: .slices) == 7)
        #expect(DecodeMemory.frames(references: 1, delay: 2, threads: 1, threading: .frames) == 7)
        #expect(DecodeMemory.frames(references: 0, delay: 0, threads: 1, threading: .frames) == 8)  // unknown: 4
        #expect(7 * frame <= DecodeSessionPool.defaultIdleBudget, "one session with one thread stays awake")
        #expect(10 * frame > DecodeSessionPool.defaultIdleBudget, "one with two frame threads sleeps")
    }

    /// Past the busy budget a reservation waits for a release; one alone may exceed it; a
    /// deadline ends the wait with `timedOut`.
    @Test func reservationsWaitForTheBudget() throws {
        let pool = DecodeSessionPool(capacity: 2, idleBudget: 0, busyBudget: 100)
        let big = try pool.reserve(150, deadline: Deadline(seconds: 1))  // alone: granted
        #expect(big.othersBusy == 0)
        #expect(throws: MediaError.timedOut(seconds: 0.2)) { _ = try pool.reserve(10, deadline: Deadline(seconds: 0.2)) }
        let granted = Mutex<DecodeSessionPool.Reservation?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let r = try? pool.reserve(60, deadline: Deadline(seconds: 10))
            granted.withLock { $0 = r }
            done.signal()
        }
        #expect(Wait.until(5) { pool.waiting == 1 }, "the reservation does not wait")
        #expect(granted.withLock { $0 } == nil, "granted beside 150 bytes in a budget of 100")
        pool.release(big)
        #expect(done.wait(timeout: .now() + 5) == .success)
        let second = try #require(granted.withLock { $0 })
        let third = try pool.reserve(40, deadline: Deadline(seconds: 1))  // 60 + 40 fit
        #expect(third.othersBusy == 1)
        #expect(pool.busy.now == 2 && pool.busy.bytes == 100 && pool.busy.peakBytes == 150)
        pool.release(second)
        pool.release(third)
        #expect(pool.busy.now == 0 && pool.busy.bytes == 0)
    }

    /// The background analysis's reservation yields: a request beside it is not counted as beside
    /// another decoder (it gets frame threads, the analysis holding still meanwhile) where their
    /// frames fit in the budget left; beside another request it gets one thread.
    @Test func aReservationBesideTheBackgroundGetsFrameThreadsWhereTheyFit() throws {
        let pool = DecodeSessionPool(capacity: 2, idleBudget: 0, busyBudget: 100)
        let background = try #require(pool.reserveIfFree(30, yields: true))
        let read = try pool.reserve(20, deadline: Deadline(seconds: 1))
        #expect(read.othersBusy == 0 && read.besideYielding && read.room == 50)
        #expect(read.decoderThreads(growth: 50) == VideoDecoder.maxThreads)
        #expect(read.decoderThreads(growth: 51) == 1, "frame threads past the budget beside the analysis")
        let other = try pool.reserve(10, deadline: Deadline(seconds: 1))
        #expect(other.othersBusy == 1 && other.decoderThreads(growth: 0) == 1)
        pool.release(background)
        pool.release(read)
        pool.release(other)
        #expect(pool.busy.now == 0 && pool.busy.bytes == 0)
        let alone = try pool.reserve(10, deadline: Deadline(seconds: 1))
        #expect(!alone.besideYielding && alone.decoderThreads(growth: 1_000) == VideoDecoder.maxThreads)
        pool.release(alone)
    }

    /// Idle sessions past the idle budget sleep, least recently used first, and wake with a
    /// decoder when taken again; the frame they give is the same.
    @Test func idleSessionsPastTheBudgetSleep() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let key = DecodeSession.Key(file: video.file, streamIndex: video.video.index, pick: .exact)
        let first = try DecodeSession(key: key, limits: ThumbnailLimits())
        let second = try DecodeSession(key: key, limits: ThumbnailLimits())
        _ = try first.exactFrame(at: 1)
        _ = try second.exactFrame(at: 2)
        let pool = DecodeSessionPool(capacity: 4, idleBudget: first.memoryEstimate() + 1, busyBudget: 1 << 30)
        pool.checkIn(first)
        pool.checkIn(second)
        #expect(pool.count == 2)
        #expect(!first.isAwake && second.isAwake, "the least recently used sleeps")
        #expect(pool.awake.count == 1)
        // The awake one is taken first; the sleeping one wakes and seeks.
        #expect(pool.checkOut(key, prefer: { _ in false }) === second)
        let woken = try #require(pool.checkOut(key, prefer: { _ in false }))
        #expect(woken === first && !woken.isAwake)
        woken.begin(limits: ThumbnailLimits())
        try woken.wake(threads: 1)
        let frame = try woken.exactFrame(at: 1.5)
        #expect(woken.seeks == 1 && woken.threads == 1)
        #expect(abs(woken.seconds(forPts: frame.pts) - 1.48) < 0.001)
    }
}
