@testable import MediaKit
import Testing

/// `FrameOrder`: frames in the decoder's order take the times of their packets in ascending order
/// where a later time came out before an earlier one sent; a frame that never comes out neither
/// holds the others back for long nor lends its time to another.
@Suite struct FrameOrderTests {
    /// A frame out of the decoder from the packet timed `packet` (its `pts`), and timed `pts` by
    /// the decoder (`best_effort_timestamp`, which may differ).
    static func frame(packet: Int64, pts: Int64? = nil) throws -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.pts = packet
        frame.pts = pts ?? packet
        return frame
    }

    /// Sends `packets` (their times, in decode order), then receives `out` (the frames' packet
    /// times, in the decoder's order) and ends: the times handed out, in order, and the times
    /// still pending.
    static func run(sent packets: [Int64], out: [Int64]) throws -> (times: [Int64], pending: Set<Int64>) {
        var order = FrameOrder()
        for packet in packets { order.sent(packet) }
        var times: [Int64] = []
        for packet in out {
            order.received(try frame(packet: packet))
            while let ready = order.next() { times.append(ready.pts) }
        }
        order.ended()
        while let ready = order.next() { times.append(ready.pts) }
        return (times, order.pending)
    }

    @Test func framesInTimeOrderGoAtOnceWithTheDecodersTimes() throws {
        var order = FrameOrder()
        for time: Int64 in [0, 120, 40, 80] { order.sent(time) }
        for (packet, given) in [(Int64(0), Int64(0)), (40, 41), (80, 80)] {
            order.received(try Self.frame(packet: packet, pts: given))
            #expect(order.next()?.pts == given)
            #expect(order.next() == nil)
        }
        #expect(order.pending == [120])
    }

    @Test func swappedTimesAreSortedInTheDecodersOrder() throws {
        // DivX packed B-frames copied to Matroska: decode order I P B N, the B-frame timed as the
        // P-frame and the reverse; the decoder gives out I, B (timed 240), P (timed 200).
        let run = try Self.run(sent: [120, 200, 160, 240, 320, 280, 360], out: [120, 160, 240, 200, 280, 360, 320])
        #expect(run.times == [120, 160, 200, 240, 280, 320, 360])
        #expect(run.pending.isEmpty)
    }

    @Test func aFrameThatNeverComesOutLendsItsTimeToNone() throws {
        // 80 does not decode: the frames after it keep their own times once `maxHeld` are held.
        let run = try Self.run(sent: [0, 40, 80, 120, 160, 200, 240, 280], out: [0, 40, 120, 160, 200, 240, 280])
        #expect(run.times == [0, 40, 120, 160, 200, 240, 280])
        #expect(run.pending == [80])
    }

    @Test func framesLeftOutOnPurposeHoldNothingBack() throws {
        // 40 and 80 went with AVDISCARD_NONREF (not `sent`) and did not come out.
        let run = try Self.run(sent: [0, 120, 160], out: [0, 120, 160])
        #expect(run.times == [0, 120, 160])
        #expect(run.pending.isEmpty)
    }
}
