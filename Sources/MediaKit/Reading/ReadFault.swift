import Glibc

/// A read of a source file that did not give the bytes the reader asked for: what tells a frame,
/// a sheet or a track made from the file from one that only looks whole.
///
/// Demuxers carry on past such a read in their own ways (the stream ends there, the packet is
/// skipped, the demuxer resynchronises further on), and what is decoded after it looks like any
/// other frame. `SourceInput` notes the first one since its reader last looked (`fault`).
public struct ReadFault: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Where the read began, in bytes from the start of the file.
    public var offset: Int64
    public var kind: Kind

    public enum Kind: Sendable, Equatable, Codable {
        /// The read failed with this errno (EIO from a failing disk, say).
        case failed(errno: Int32)
        /// The file ended at `offset`, though it had `size` bytes when it was opened: it was cut
        /// (or replaced by a shorter one) while being read.
        case shrunk(size: Int64)
        /// A read past the end of the file, which has `size` bytes: the file's own index (an MP4's
        /// sample table, Matroska's cues) promises data the file does not have. The file as it is
        /// was cut short; reading it again gives the same.
        case pastEnd(size: Int64)
    }

    /// Whether reading the same bytes again may give another answer: a failing read or a file
    /// that changed under its reader. What is made through such a fault is never kept.
    public var mayPass: Bool {
        if case .pastEnd = kind { return false }
        return true
    }

    public var description: String {
        switch kind {
        case .failed(let code):
            return "reading at byte \(offset) failed: \(String(cString: strerror(code)))"
        case .shrunk(let size):
            return "the file ends at byte \(offset), though it had \(size) bytes when it was opened"
        case .pastEnd(let size):
            return "its index points to byte \(offset), past the end of the file at \(size) bytes: the file is cut short"
        }
    }
}
