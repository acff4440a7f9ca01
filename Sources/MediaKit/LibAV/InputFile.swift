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
    /// The file's bytes as the context reads them, and what went wrong reading them.
    let source: SourceInput

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
    /// - Throws: `MediaError.io` if the file cannot be opened, `.notMedia` if the header cannot be
    ///   read, `.unreadable` if reading it failed (`ReadFault.mayPass`), `.timedOut` past the deadline.
    init(path: FilePath, deadline: Deadline, findStreamInfo: Bool = true) throws {
        self.path = path
        let timeout = deadline.seconds
        let source = try SourceInput(path: path, deadline: deadline)
        guard var ctx = avformat_alloc_context() else {
            throw MediaError.library(function: "avformat_alloc_context", code: cav_averror(ENOMEM), message: "out of memory")
        }
        ctx.pointee.interrupt_callback.callback = deadlineInterruptCallback
        ctx.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(deadline).toOpaque()
        // Our reader: libavformat leaves it to us to free (`AVFMT_FLAG_CUSTOM_IO`).
        ctx.pointee.pb = source.context
        var optional: UnsafeMutablePointer<AVFormatContext>? = ctx
        let opened = path.withPlatformString { avformat_open_input(&optional, $0, nil, nil) }
        guard opened >= 0, let openedCtx = optional else {
            // avformat_open_input frees the context on failure.
            if deadline.hasPassed { throw MediaError.timedOut(seconds: timeout) }
            if let fault = source.fault, fault.mayPass { throw MediaError.unreadable(fault) }
            throw MediaError.notMedia(reason: averrorText(opened))
        }
        ctx = openedCtx
        let found = findStreamInfo ? avformat_find_stream_info(ctx, nil) : 0
        if found < 0 {
            var toClose: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&toClose)
            if deadline.hasPassed { throw MediaError.timedOut(seconds: timeout) }
            if let fault = source.fault, fault.mayPass { throw MediaError.unreadable(fault) }
            throw MediaError.notMedia(reason: "no stream information: \(averrorText(found))")
        }
        self.context = ctx
        self.deadline = deadline
        self.source = source
    }

    /// Forgets the read faults noted so far (`SourceInput.fault`): a new piece of work starts.
    func clearReadFault() { source.clearFault() }

    /// Notes `packet`, just read, as cut where libavformat could not fill it because the file ends
    /// inside it (`AV_PKT_FLAG_CORRUPT` on a packet reaching the end): its index promised more.
    func noteIfCut(_ packet: UnsafePointer<AVPacket>) {
        guard isCut(packet) else { return }
        source.notePacketCut(at: packet.pointee.pos + Int64(packet.pointee.size))
    }

    /// Whether the file ends inside `packet` (see `noteIfCut`).
    func isCut(_ packet: UnsafePointer<AVPacket>) -> Bool {
        let p = packet.pointee
        return p.flags & AV_PKT_FLAG_CORRUPT != 0 && p.pos >= 0 && p.pos + Int64(p.size) >= source.size
    }

    /// Throws if a read since `clearReadFault()` failed in a way that may pass (`ReadFault.mayPass`:
    /// a failing read, a file that changed under its reader): nothing made meanwhile can be trusted.
    /// - Throws: `MediaError.unreadable`.
    func checkReads() throws {
        if let fault = source.fault, fault.mayPass { throw MediaError.unreadable(fault) }
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
