/// The container formats whose chapters mediafs reads itself, told apart by their first bytes
/// (not by the file's name, which may lie).
enum ContainerFamily {
    /// Matroska or WebM: an EBML header.
    case matroska
    /// QuickTime or ISO base media (mov, mp4, m4a, m4b, 3gp): a known top-level atom first.
    case quickTime
    /// Anything else: left to libavformat.
    case other

    /// The family of a file that begins with `head` (its first 12 bytes or more).
    init(head: [UInt8]) {
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            self = .matroska
            return
        }
        let topLevel: Set<String> = ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot", "uuid"]
        if head.count >= 8, topLevel.contains(String(decoding: head[4..<8], as: UTF8.self)) {
            self = .quickTime
            return
        }
        self = .other
    }
}
