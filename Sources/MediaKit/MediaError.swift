import CAV
import Glibc

/// What can go wrong in the media layer. Each case carries enough to write one clear log line.
public enum MediaError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file could not be opened or its header could not be read as media (empty, truncated, not media).
    case notMedia(reason: String)
    /// A libav* call failed; `function` names the C function, `code` is its AVERROR, `message` its text.
    case library(function: String, code: Int32, message: String)
    /// The work took longer than its bound and was interrupted.
    case timedOut(seconds: Double)
    /// The file has no moving-picture video stream at this container index.
    case noVideoStream(index: Int)
    /// There is no frame to show at `time` (seconds from the first frame): past the end, or past
    /// where a truncated stream stops; `reason` says which.
    case noFrame(time: Double, reason: String)
    /// The file is damaged: a stream could not be decoded (too many broken packets in a row, or
    /// the cap on decoded frames reached before the frame asked for), or a structure we read
    /// ourselves (Matroska, QuickTime chapters) is broken.
    case damaged(reason: String)
    /// A thumbnail could not be made from a decoded frame (a bad size, scaling or PNG failed).
    case imageFailed(reason: String)
    /// The file is well formed but uses something we do not read (e.g. a compressed QuickTime `cmov`).
    case unsupported(reason: String)
    /// A system call on the source file failed; `code` is its errno.
    case io(function: String, code: Int32)
    /// A read of the source did not give the bytes asked for (a failing disk, a file cut while it
    /// was read, an index pointing past the end): what would be made from it could be wrong, so
    /// nothing is. Where `fault.mayPass`, the next attempt may succeed.
    case unreadable(ReadFault)
    /// The file is not the one the caller described (another size): it changed since it was probed.
    case sourceChanged(reason: String)
    /// A track could not be made from stream `stream`: it is missing or of another kind, no
    /// decoder or muxer takes it, or the file is damaged before any of its data.
    case trackUnavailable(stream: Int, reason: String)
    /// An output file could not be made, written or renamed; `reason` is the system's message.
    case output(path: String, reason: String)
    /// The caller stopped the work (an analysis at unmount: `AnalysisRequest.pause`).
    case cancelled(reason: String)

    public var description: String {
        switch self {
        case .notMedia(let reason): return "not media: \(reason)"
        case .library(let function, let code, let message): return "\(function) failed (\(code)): \(message)"
        case .timedOut(let seconds): return "gave up after \(seconds) s"
        case .noVideoStream(let index): return "no video stream at index \(index)"
        case .noFrame(let time, let reason): return "no frame at \(time) s: \(reason)"
        case .damaged(let reason): return "damaged: \(reason)"
        case .imageFailed(let reason): return "cannot make the image: \(reason)"
        case .unsupported(let reason): return "unsupported: \(reason)"
        case .io(let function, let code): return "\(function) failed: \(String(cString: strerror(code)))"
        case .unreadable(let fault): return "cannot read the file: \(fault)"
        case .sourceChanged(let reason): return "the file changed: \(reason)"
        case .trackUnavailable(let stream, let reason): return "no track from stream \(stream): \(reason)"
        case .output(let path, let reason): return "cannot write \(path): \(reason)"
        case .cancelled(let reason): return "stopped: \(reason)"
        }
    }
}

extension MediaError {
    /// Whether the same work on the same bytes may succeed another time: a read that failed, a
    /// file that changed, a timeout. What failed so is never kept; the other failures (the bytes
    /// are what they are: damaged, not media) may be.
    public var mayPass: Bool {
        switch self {
        case .timedOut, .io, .sourceChanged, .cancelled: return true
        case .unreadable(let fault): return fault.mayPass
        default: return false
        }
    }

    /// What `body` gives, or nil where it fails for good (the bytes are damaged or not what is
    /// looked for); a failure that may pass (`mayPass`: a read that failed) is thrown, so that no
    /// answer missing what the file holds is taken for the file's own.
    /// - Throws: the `MediaError`s that may pass, and errors that are not `MediaError`s.
    static func unlessDamaged<T>(_ body: () throws -> T) throws -> T? {
        do {
            return try body()
        } catch let error as MediaError where !error.mayPass {
            return nil
        }
    }
}

/// The text of an AVERROR code. The corresponding C function is `av_strerror`.
public func averrorText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Sends a libav* return code through one checker: negative codes become `MediaError.library`.
@discardableResult
func check(_ code: Int32, _ function: String) throws -> Int32 {
    guard code < 0 else { return code }
    throw MediaError.library(function: function, code: code, message: averrorText(code))
}
