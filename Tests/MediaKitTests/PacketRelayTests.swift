import CAV
@testable import MediaKit
import Synchronization
import Testing

/// The relay between a track pass's reading and writing threads: order, bounds, early ends.
@Suite struct PacketRelayTests {
    /// What the writer saw, shared with the reading test.
    final class Tally: Sendable {
        let times = Mutex<[Int64]>([])
        let last = Atomic<Int>(0)
        let calls = Atomic<Int>(0)
    }

    /// Reads `count` made-up packets through `relay` (packet n has n % 5000 + 1 bytes, every 100th
    /// 1 MiB), recording for each how many packets were kept and not yet written at that moment.
    /// Returns how many packets were read before the relay refused more.
    func feed(_ relay: PacketRelay, count: Int, tally: Tally, held: inout Int) -> Int {
        for n in 0..<count {
            guard let slot = relay.nextSlot() else { return n }
            let size = n % 100 == 99 ? 1 << 20 : n % 5000 + 1
            #expect(slot.pointee.size == 0 && slot.pointee.buf == nil)
            #expect(av_new_packet(slot, Int32(size)) == 0)
            slot.pointee.pts = Int64(n)
            if n % 7 == 3 {
                relay.drop()  // a packet of a stream no sink wants
                continue
            }
            relay.keep(size: size)
            held = max(held, n - tally.last.load(ordering: .relaxed))
        }
        return count
    }

    @Test func everyKeptPacketIsWrittenInOrderWithinTheBound() throws {
        let relay = try PacketRelay()
        let tally = Tally()
        relay.startWriter(name: "test-writer") { packet in
            tally.times.withLock { $0.append(packet.pointee.pts) }
            tally.last.store(Int(packet.pointee.pts), ordering: .relaxed)
            return true
        }
        var held = 0
        #expect(feed(relay, count: 5_000, tally: tally, held: &held) == 5_000)
        relay.end(abandon: false)
        let expected = (0..<5_000).filter { $0 % 7 != 3 }.map(Int64.init)
        #expect(tally.times.withLock { $0 } == expected)
        // The batches in the writer's hands and the one being filled, with the dropped ones among them.
        #expect(held <= (PacketRelay.batchCount + 1) * PacketRelay.packetsPerBatch * 7 / 6 + 1)
    }

    /// A writer that keeps a reference to each packet until the next one, as the Matroska muxer
    /// does with audio: the reader still holds the packet when the writer lets it go, so the
    /// packet's data is never freed on the writer's thread.
    @Test func aWriterKeepingThePreviousPacketNeverHoldsItsLastReference() throws {
        // `@unchecked`: the writer's thread alone uses it, so no lock has anything to guard.
        final class Previous: @unchecked Sendable {
            var packet = av_packet_alloc()
            var lastReferences = 0
            deinit { av_packet_free(&packet) }
        }
        let relay = try PacketRelay()
        let tally = Tally()
        let previous = Previous()
        relay.startWriter(name: "test-writer") { packet in
            if let buffer = previous.packet?.pointee.buf, av_buffer_get_ref_count(buffer) < 2 {
                previous.lastReferences += 1
            }
            av_packet_unref(previous.packet)
            _ = av_packet_ref(previous.packet, packet)
            tally.last.store(Int(packet.pointee.pts), ordering: .relaxed)
            return true
        }
        var held = 0
        #expect(feed(relay, count: 20_000, tally: tally, held: &held) == 20_000)
        relay.end(abandon: false)
        #expect(previous.lastReferences == 0)
    }

    @Test func aWriterThatWantsNoMoreStopsTheReader() throws {
        let relay = try PacketRelay()
        let tally = Tally()
        relay.startWriter(name: "test-writer") { _ in
            tally.calls.add(1, ordering: .relaxed).oldValue < 99
        }
        var held = 0
        let read = feed(relay, count: 100_000, tally: tally, held: &held)
        relay.end(abandon: false)
        #expect(read < 100_000)
        #expect(read <= 100 * 7 / 6 + (PacketRelay.batchCount + 2) * PacketRelay.packetsPerBatch * 7 / 6)
        #expect(tally.calls.load(ordering: .relaxed) <= 100 + PacketRelay.packetsPerBatch)
    }

    @Test func anAbandonedPassSkipsWhatIsNotWrittenYet() throws {
        let relay = try PacketRelay()
        let tally = Tally()
        relay.startWriter(name: "test-writer") { _ in
            _ = tally.calls.add(1, ordering: .relaxed)
            return true
        }
        var held = 0
        #expect(feed(relay, count: 1_000, tally: tally, held: &held) == 1_000)
        relay.end(abandon: true)
        let after = tally.calls.load(ordering: .relaxed)
        #expect(after <= 1_000)
        #expect(relay.nextSlot() == nil)
        #expect(tally.calls.load(ordering: .relaxed) == after)
    }
}
