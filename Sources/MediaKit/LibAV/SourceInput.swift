import CAV
import Glibc
import Synchronization
import SystemPackage

/// A source file as libavformat reads it: an `AVIOContext` of our own over `pread`, and the one
/// owner of that context, its buffer and the file's descriptor, all freed in `deinit`.
///
/// Through libavformat's own file protocol, a failing disk, a file cut while it is read, or an
/// index that points past the end of the file show only as far as the demuxer reports them, and
/// most demuxers carry on (the stream ends, the packet is skipped, the demuxer resynchronises):
/// the frames decoded afterwards look whole. Here every read that does not give what it asked for
/// is noted (`fault`, a `ReadFault`), so that whatever is made from the file can be checked before
/// it is served. Reads also stop at the deadline (libavformat's interrupt callback is polled by
/// its own protocols only).
///
/// Used by one thread at a time, as its `InputFile`: `@unchecked Sendable`.
final class SourceInput: @unchecked Sendable {
    let context: UnsafeMutablePointer<AVIOContext>
    /// The file's size when it was opened.
    let size: Int64
    private let descriptor: Int32
    private let deadline: Deadline
    /// Where the next read starts.
    private var position: Int64 = 0
    /// The first read since `clearFault()` that did not give the bytes it asked for.
    private(set) var fault: ReadFault?
    /// Reads from this byte on fail with EIO, as a failing disk's do (`failingReads`).
    private let failsFrom: Int64?

    /// libavformat's buffer size for its own file protocol (`IO_BUFFER_SIZE`).
    static let bufferSize: Int32 = 32_768

    /// For tests: files whose reads fail with EIO from a byte on, by path, taken at open.
    static let failingReads = Mutex<[FilePath: Int64]>([:])

    /// Opens `path` read-only (by its bytes) for libavformat, its reads bounded by `deadline`.
    /// - Throws: `MediaError.io` if the file cannot be opened, `.library` without memory.
    /// The corresponding C functions are `open`, `fstat` and `avio_alloc_context`.
    init(path: FilePath, deadline: Deadline) throws {
        let (fd, size) = try FileReader.open(path)
        let outOfMemory = MediaError.library(function: "avio_alloc_context", code: cav_averror(ENOMEM), message: "out of memory")
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            close(fd)
            throw outOfMemory
        }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, nil,
                                               sourceReadCallback, nil, sourceSeekCallback) else {
            av_free(buffer)
            close(fd)
            throw outOfMemory
        }
        self.context = context
        self.descriptor = fd
        self.size = size
        self.deadline = deadline
        failsFrom = Self.failingReads.withLock { $0[path] }
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        // libavformat may have replaced the buffer it was given: free the one it holds now.
        av_freep(&context.pointee.buffer)
        var freed: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&freed)
        close(descriptor)
    }

    /// Forgets the fault noted so far: reads from now on are checked afresh.
    func clearFault() { fault = nil }

    /// Runs `body`, keeping the faults of its reads apart from those noted before and after:
    /// what `body` gives, and the first fault of its reads.
    func apart<T>(_ body: () -> T) -> (T, ReadFault?) {
        let before = fault
        fault = nil
        let result = body()
        let met = fault
        fault = before
        return (result, met)
    }

    /// Notes a packet libavformat read whole from `offset` up to the end of the file but could
    /// not fill (`AV_PKT_FLAG_CORRUPT`): the file ends inside it, before what its index promised.
    func notePacketCut(at offset: Int64) {
        note(ReadFault(offset: offset, kind: .pastEnd(size: size)))
    }

    /// Up to `count` bytes from the position into `buffer`, for libavformat: the number read,
    /// `AVERROR_EOF` at the end of the file, `AVERROR(errno)` when the read fails, `AVERROR_EXIT`
    /// past the deadline. Notes a read that fails, that finds the file shorter than it was, or
    /// that starts past its end. The corresponding C function is `pread`.
    fileprivate func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        if deadline.hasPassed { return cav_error_exit() }
        let at = position
        var wanted = count
        if let failsFrom, at + Int64(count) > failsFrom {
            // A failing disk gives the bytes before its bad block, then fails.
            guard at < failsFrom else { return failed(at: at, code: EIO) }
            wanted = Int(failsFrom - at)
        }
        while true {
            let n = pread(descriptor, buffer, wanted, off_t(at))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return failed(at: at, code: errno) }
            if n == 0 {
                if at < size {
                    note(ReadFault(offset: at, kind: .shrunk(size: size)))
                } else if at > size {
                    note(ReadFault(offset: at, kind: .pastEnd(size: size)))
                }
                return cav_error_eof()
            }
            position = at + Int64(n)
            return Int32(n)
        }
    }

    /// Moves the position as `lseek` would (`whence`: `SEEK_SET`, `SEEK_CUR`, `SEEK_END`), or
    /// gives the file's size (`AVSEEK_SIZE`), for libavformat.
    fileprivate func seek(to offset: Int64, whence: Int32) -> Int64 {
        let how = whence & ~Int32(AVSEEK_FORCE)
        if how == AVSEEK_SIZE { return currentSize() }
        let target: Int64
        switch how {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = currentSize() + offset
        default: return Int64(cav_averror(EINVAL))
        }
        guard target >= 0 else { return Int64(cav_averror(EINVAL)) }
        position = target
        return target
    }

    private func currentSize() -> Int64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : size
    }

    private func failed(at offset: Int64, code: Int32) -> Int32 {
        note(ReadFault(offset: offset, kind: .failed(errno: code)))
        return cav_averror(code)
    }

    private func note(_ new: ReadFault) {
        if fault == nil { fault = new }
    }
}

/// libavformat's read callback for a `SourceInput` (its `opaque`).
private let sourceReadCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, count in
    guard let opaque, let buffer, count > 0 else { return cav_averror(EINVAL) }
    return Unmanaged<SourceInput>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: Int(count))
}

/// libavformat's seek callback for a `SourceInput` (its `opaque`).
private let sourceSeekCallback: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return Int64(cav_averror(EINVAL)) }
    return Unmanaged<SourceInput>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
}
