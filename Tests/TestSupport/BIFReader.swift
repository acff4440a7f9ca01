/// A BIF reader written from Roku's published specification ("BIF file format", Roku developer
/// documentation, Trick mode), independent of `BIFLayout`: what a Roku player or Emby's web client
/// does with the file. All integers are 32-bit little-endian. Shared by the tests of `BIFLayout`
/// and of the server layout's BIFs through a mount.
public struct BIFReader {
    public struct Frame: Equatable {
        /// The frame's time in milliseconds: its index timestamp times the multiplier.
        public var milliseconds: Int
        public var jpeg: [UInt8]
    }

    public enum Failure: Error, Equatable {
        case notBIF, version(Int), truncated, indexNotEnded, offsetsOutOfOrder, countMismatch(declared: Int, indexed: Int)
    }

    public var version: Int
    public var imageCount: Int
    /// Milliseconds per timestamp unit (0 in the file means 1000).
    public var multiplier: Int
    public var reservedAllZero: Bool
    public var frames: [Frame]
    /// The end offset the last index entry gives: the file's data end.
    public var dataEnd: Int

    public init(_ bytes: [UInt8]) throws {
        func word(_ at: Int) throws -> Int {
            guard at + 4 <= bytes.count else { throw Failure.truncated }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        guard bytes.count >= 64, Array(bytes[0..<8]) == [0x89, 0x42, 0x49, 0x46, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure.notBIF
        }
        version = try word(8)
        guard version == 0 else { throw Failure.version(version) }
        imageCount = try word(12)
        let stored = try word(16)
        multiplier = stored == 0 ? 1000 : stored
        reservedAllZero = bytes[20..<64].allSatisfy { $0 == 0 }
        var entries: [(timestamp: Int, offset: Int)] = []
        var at = 64
        while true {
            let timestamp = try word(at)
            let offset = try word(at + 4)
            at += 8
            if timestamp == 0xFFFF_FFFF {
                dataEnd = offset
                break
            }
            entries.append((timestamp, offset))
            guard entries.count <= imageCount else { throw Failure.indexNotEnded }
        }
        guard entries.count == imageCount else { throw Failure.countMismatch(declared: imageCount, indexed: entries.count) }
        let ends = entries.dropFirst().map(\.offset) + [dataEnd]
        frames = []
        for (entry, end) in zip(entries, ends) {
            guard entry.offset >= at, entry.offset <= end else { throw Failure.offsetsOutOfOrder }
            guard end <= bytes.count else { throw Failure.truncated }
            frames.append(Frame(milliseconds: entry.timestamp * multiplier, jpeg: Array(bytes[entry.offset..<end])))
        }
    }
}
