import Glibc

/// The one `pread` loop: every read at an offset of a file, in MediaKit and in the tree.
public enum PositionalRead {
    /// Up to `count` bytes of `descriptor` from `offset`; fewer only at the end of the file.
    /// Interrupted calls (EINTR) are made again.
    /// - Returns: the bytes, or the `errno` of the failed call.
    /// The corresponding C function is `pread`.
    public static func read(_ descriptor: Int32, offset: Int64, count: Int) -> Result<[UInt8], PositionalReadError> {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: max(0, count)) { buffer, filled in
            filled = 0
            while filled < count {
                let n = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno; return }
                if n == 0 { return }
                filled += n
            }
        }
        return failure == 0 ? .success(bytes) : .failure(PositionalReadError(code: failure))
    }
}

/// A failed `pread`: its errno.
public struct PositionalReadError: Error, Sendable {
    public var code: Int32
}
