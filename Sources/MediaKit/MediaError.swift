import CAV
import Glibc

/// What can go wrong in the media layer. Each case carries enough to write one clear log line.
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or its header could not be read as media (empty, truncated, not media).
    case notMedia(reason: String)
    /// A libav* call failed; `function` names the C function, `code` is its AVERROR, `message` its text.
    case library(function: String, code: Int32, message: String)
    /// The work took longer than its bound and was interrupted.
    case timedOut(seconds: Double)
    /// The file says it is of a format we read ourselves (Matroska, QuickTime) but its structure is
    /// broken: a length past its parent or the end of the file, an element too large or too deep.
    case damaged(reason: String)
    /// The file is well formed but uses something we do not read (e.g. a compressed QuickTime `cmov`).
    case unsupported(reason: String)
    /// A system call on the source file failed; `code` is its errno.
    case io(function: String, code: Int32)

    public var description: String {
        switch self {
        case .notMedia(let reason): return "not media: \(reason)"
        case .library(let function, let code, let message): return "\(function) failed (\(code)): \(message)"
        case .timedOut(let seconds): return "gave up after \(seconds) s"
        case .damaged(let reason): return "damaged: \(reason)"
        case .unsupported(let reason): return "unsupported: \(reason)"
        case .io(let function, let code): return "\(function) failed: \(String(cString: strerror(code)))"
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
