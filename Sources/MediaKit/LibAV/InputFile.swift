import CAV
import SystemPackage

/// An opened media file: the one owner of an input `AVFormatContext`, closed in `deinit`.
///
/// The init either returns a context whose header was read and whose streams were analysed, or
/// throws with nothing left allocated. Blocking I/O inside libav* is bounded by `Deadline`.
final class InputFile {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The bound on the work with this file, polled by libav*'s interrupt callback; also for
    /// callers to check between calls.
    let deadline: Deadline
    let path: FilePath

    /// Opens `path` and reads its stream information, within `timeout` seconds.
    /// - Parameter findStreamInfo: false to read the header only (enough for chapters, which
    ///   demuxers read with the header), skipping the costly analysis of the streams.
    /// - Throws: `MediaError.notMedia` if the header cannot be read, `.timedOut` past `timeout`.
    convenience init(path: FilePath, timeout: Double, findStreamInfo: Bool = true) throws {
        try self.init(path: path, deadline: Deadline(seconds: timeout), findStreamInfo: findStreamInfo)
    }

    /// Opens `path` (by its bytes, whatever they are: a name need not be UTF-8) and reads its stream
    /// information; `deadline` bounds the open and, later, every read of the context (move it with
    /// `Deadline.restart`).
    /// The corresponding C functions are `avformat_open_input` and `avformat_find_stream_info`.
    /// - Throws: `MediaError.notMedia` if the header cannot be read, `.timedOut` past the deadline.
    init(path: FilePath, deadline: Deadline, findStreamInfo: Bool = true) throws {
        self.path = path
        let timeout = deadline.seconds
        guard var ctx = avformat_alloc_context() else {
            throw MediaError.library(function: "avformat_alloc_context", code: cav_averror(ENOMEM), message: "out of memory")
        }
        ctx.pointee.interrupt_callback.callback = deadlineInterruptCallback
        ctx.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(deadline).toOpaque()
        var optional: UnsafeMutablePointer<AVFormatContext>? = ctx
        let opened = path.withPlatformString { avformat_open_input(&optional, $0, nil, nil) }
        guard opened >= 0, let openedCtx = optional else {
            // avformat_open_input frees the context on failure.
            if deadline.hasPassed { throw MediaError.timedOut(seconds: timeout) }
            throw MediaError.notMedia(reason: averrorText(opened))
        }
        ctx = openedCtx
        let found = findStreamInfo ? avformat_find_stream_info(ctx, nil) : 0
        if found < 0 {
            var toClose: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&toClose)
            if deadline.hasPassed { throw MediaError.timedOut(seconds: timeout) }
            throw MediaError.notMedia(reason: "no stream information: \(averrorText(found))")
        }
        self.context = ctx
        self.deadline = deadline
    }

    deinit {
        var toClose: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&toClose)
    }

    /// The streams, in file order.
    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
    }

    /// The chapters, in file order.
    var chapters: [UnsafeMutablePointer<AVChapter>] {
        (0..<Int(context.pointee.nb_chapters)).compactMap { context.pointee.chapters[$0] }
    }
}
