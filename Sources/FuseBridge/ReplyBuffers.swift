import Synchronization

/// Buffers for readdir replies, used again from one reply to the next.
///
/// The kernel asks for as much as the reader's buffer (32 KiB for `ls`): a size jemalloc serves
/// from an extent of its own, which it hands back to the system at once when freed (its decay time
/// is 0, `Allocator`). A buffer allocated and freed per reply costs an `madvise` per readdir and the
/// page faults of touching its memory again, in every readdir of a library's `ls -lR`.
final class ReplyBuffers: Sendable {
    /// `@unchecked`: raw memory, used only by the one reply that took it from `idle`.
    private struct Buffer: @unchecked Sendable {
        let memory: UnsafeMutableRawBufferPointer
    }

    /// Buffers not in use; as many as replies were built at once, at most `kept`.
    private let idle = Mutex<[Buffer]>([])
    private static let kept = 32
    /// Larger buffers are not kept (the kernel asks for at most 128 KiB: `max_pages`).
    private static let largestKept = 1 << 17

    /// Calls `body` with a buffer of at least `size` bytes (not zeroed), taken back after.
    func withBuffer<Result>(size: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result {
        var buffer = idle.withLock { $0.popLast() }
        if let small = buffer, small.memory.count < size {
            small.memory.deallocate()
            buffer = nil
        }
        let taken = buffer ?? Buffer(memory: .allocate(byteCount: size, alignment: 8))
        defer {
            let returned = taken.memory.count <= Self.largestKept && idle.withLock { idle in
                guard idle.count < Self.kept else { return false }
                idle.append(taken)
                return true
            }
            if !returned { taken.memory.deallocate() }
        }
        return try body(UnsafeMutableRawBufferPointer(rebasing: taken.memory[0..<size]))
    }

    deinit {
        idle.withLock { $0.forEach { $0.memory.deallocate() } }
    }
}
