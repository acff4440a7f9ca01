import CAV
import Foundation

/// Carries the packets of a track pass from the thread that demuxes the source (the reader) to a
/// thread of its own that hands them to the sinks (the writer), so that reading and writing
/// overlap: on two cores the pass takes about the longer of the two, not their sum.
///
/// Packets travel in batches, so the lock is taken once per batch rather than once per packet. The
/// batches are a fixed set that goes round: the reader fills one, the writer empties it and gives
/// it back, and the reader drops the references it still holds before filling it again, so packet
/// data is freed on the thread that allocated it (the writer gives a batch back one batch late, so
/// that its muxers have let go of its packets). Memory is bounded: at most `batchCount` batches,
/// each sent once it holds `packetsPerBatch` packets or `bytesPerBatch` bytes.
///
/// `@unchecked`: the queues are guarded by `condition`, whose waits `Mutex` cannot do.
final class PacketRelay: @unchecked Sendable {
    /// One more than the batches in flight: the writer holds the last one it wrote (`writeAll`).
    static let batchCount = 5
    static let packetsPerBatch = 256
    static let bytesPerBatch = 2 << 20

    /// Packets in a fixed set of owners; `count` of them hold data.
    final class Batch {
        let packets: [Packet]
        var count = 0
        var bytes = 0

        init() throws { packets = try (0..<PacketRelay.packetsPerBatch).map { _ in try Packet() } }

        var isFull: Bool { count == packets.count || bytes >= PacketRelay.bytesPerBatch }

        /// Drops the data of the packets it held.
        func empty() {
            for packet in packets.prefix(count) { packet.unref() }
            count = 0
            bytes = 0
        }
    }

    private let condition = NSCondition()
    /// Filled batches, oldest first, for the writer.
    private var ready: [Batch] = []
    /// Batches the writer is done with, for the reader.
    private var spare: [Batch]
    /// The batch the reader is filling; only the reader touches it.
    private var filling: Batch?
    /// The reader sends no more batches.
    private var ended = false
    /// The writer wants no more packets (every sink is done, or the pass was abandoned).
    private var refusing = false
    /// The writer has returned.
    private var writerDone = false

    /// - Throws: `MediaError.library` when the packets cannot be allocated.
    init() throws {
        spare = try (0..<Self.batchCount).map { _ in try Batch() }
    }

    // MARK: The reader's side

    /// The packet to read the next one into, or nil once the writer wants no more. Waits while
    /// every batch is with the writer.
    func nextSlot() -> UnsafeMutablePointer<AVPacket>? {
        if filling == nil {
            condition.lock()
            while spare.isEmpty && !refusing { condition.wait() }
            let batch = refusing ? nil : spare.removeLast()
            condition.unlock()
            guard let batch else { return nil }
            batch.empty()
            filling = batch
        }
        guard let batch = filling else { return nil }
        return batch.packets[batch.count].pointer
    }

    /// Keeps the packet just read into `nextSlot()` (`size` bytes); sends the batch once it is full.
    /// A packet read and not kept must be dropped: the next read expects an empty packet.
    func keep(size: Int) {
        guard let batch = filling else { return }
        batch.count += 1
        batch.bytes += size
        if batch.isFull { send() }
    }

    /// Empties the packet just read into `nextSlot()` without sending it (a stream no sink wants).
    func drop() {
        guard let batch = filling else { return }
        batch.packets[batch.count].unref()
    }

    /// Sends what is filled, tells the writer there is no more, and waits until it has returned.
    /// With `abandon`, the writer skips whatever it has not written yet.
    func end(abandon: Bool) {
        if !abandon { send() }
        condition.lock()
        ended = true
        if abandon { refusing = true }
        condition.broadcast()
        while !writerDone { condition.wait() }
        condition.unlock()
        for batch in ready + spare + [filling].compactMap({ $0 }) { batch.empty() }
        filling = nil
    }

    private func send() {
        guard let batch = filling, batch.count > 0 else { return }
        filling = nil
        condition.lock()
        ready.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The writer's side

    /// Starts the writer: a thread that runs `write` on each packet in the order read, until the
    /// reader ends or `write` returns false (it wants no more packets).
    func startWriter(name: String, _ write: @escaping (UnsafeMutablePointer<AVPacket>) -> Bool) {
        let work = UncheckedBox(write)
        let thread = Thread { [self] in
            writeAll(work.value)
        }
        thread.name = name
        thread.start()
    }

    private func writeAll(_ write: (UnsafeMutablePointer<AVPacket>) -> Bool) {
        // The batch written before the current one, given back only once the current one is
        // written: a muxer may keep a reference to a packet until the next packet of its stream
        // (Matroska holds each audio packet back one), and that packet is in the next batch. So
        // when the reader empties a batch, the writer's references to it are gone, and the
        // packets' data is freed where it was allocated, on the reader's thread. Freed here
        // instead, the data goes back to the reader's malloc arena under its lock, and the two
        // threads took turns on that lock for much of the pass.
        var held: Batch?
        while let batch = receive() {
            var wanted = true
            for packet in batch.packets.prefix(batch.count) where wanted {
                wanted = write(packet.pointer)
            }
            condition.lock()
            if let held { spare.append(held) }
            held = batch
            if !wanted { refusing = true }
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        if let held { spare.append(held) }
        writerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next filled batch, or nil once the reader has ended and every batch is written (or the
    /// writer refuses).
    private func receive() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !ended && !refusing { condition.wait() }
        return refusing || ready.isEmpty ? nil : ready.removeFirst()
    }
}

/// Carries a value that is not `Sendable` to another thread, where the caller guarantees that only
/// one thread uses it at a time.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
