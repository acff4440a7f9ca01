/// Where everything goes in a BIF (Base Index Frames) file, Roku's archive of trick-play frames
/// that Emby and Roku players read: from the JPEGs' lengths alone, so the file's exact size is
/// known before any frame is made.
///
/// Roku's published format, all integers 32-bit little-endian:
///
/// ```
/// 0   magic          89 42 49 46 0D 0A 1A 0A ("\x89BIF\r\n\x1a\n")
/// 8   version        0
/// 12  image count    N
/// 16  multiplier     milliseconds per timestamp unit (0 would mean 1000)
/// 20  reserved       44 zero bytes
/// 64  index          N + 1 entries of (timestamp, absolute offset of the JPEG); the last one is
///                    (0xFFFFFFFF, offset just past the last JPEG)
/// …   images         the JPEGs, back to back, in index order
/// ```
///
/// Frame `i` has timestamp `i` and the multiplier is the interval in milliseconds, as Roku's own
/// `makebif.py` and Emby's Roku plugin write it: frame `i` stands for `i` × interval.
public struct BIFLayout: Sendable, Hashable {
    /// The file identifier every BIF starts with.
    public static let magic: [UInt8] = [0x89, 0x42, 0x49, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The format version this layout writes.
    public static let version: UInt32 = 0
    /// Bytes before the index: magic, version, count, multiplier and the reserved bytes.
    public static let headerBytes = 64
    /// The timestamp of the index entry that ends the index.
    public static let endOfIndex: UInt32 = 0xFFFF_FFFF

    /// The length of each JPEG, in index order.
    public let imageSizes: [Int]
    /// Milliseconds from one frame to the next: the timestamp multiplier.
    public let intervalMilliseconds: Int

    /// The layout of `imageSizes.count` frames `intervalMilliseconds` apart; nil when there is no
    /// frame, an image is empty, the interval is not 1 … 0xFFFFFFFE ms, or the file would not fit
    /// the 32-bit offsets (4 GiB).
    public init?(imageSizes: [Int], intervalMilliseconds: Int) {
        guard !imageSizes.isEmpty, imageSizes.allSatisfy({ $0 > 0 }),
              (1..<Int(Self.endOfIndex)).contains(intervalMilliseconds) else { return nil }
        self.imageSizes = imageSizes
        self.intervalMilliseconds = intervalMilliseconds
        guard fileSize <= Int(UInt32.max) else { return nil }
    }

    /// The BIF of a storyboard's frames: one JPEG per tile, each the tile's size and so the JPEG
    /// budget of one tile (`StoryboardLayout.frameBudget`), frame `i` at the start of tile `i`'s
    /// interval.
    public init?(frames storyboard: StoryboardLayout) {
        let bytes = storyboard.frameBudget.bytes
        self.init(imageSizes: Array(repeating: bytes, count: storyboard.tileCount),
                  intervalMilliseconds: storyboard.intervalMilliseconds)
    }

    public var imageCount: Int { imageSizes.count }

    /// Bytes of the index: N + 1 entries of 8 bytes.
    public var indexBytes: Int { 8 * (imageCount + 1) }

    /// Where the first JPEG starts: everything before it is `prefix()`.
    public var firstImageOffset: Int { Self.headerBytes + indexBytes }

    /// The exact length of the file.
    public var fileSize: Int { firstImageOffset + imageSizes.reduce(0, +) }

    /// Where JPEG `image` (0 ..< `imageCount`) starts; `imageCount` gives the end of the last one.
    public func offset(ofImage image: Int) -> Int {
        precondition((0...imageCount).contains(image), "no image \(image) of \(imageCount)")
        return firstImageOffset + imageSizes[..<image].reduce(0, +)
    }

    /// The JPEG (0-based) that holds byte `offset` of the file, or nil when the byte is in the
    /// header or index (`prefix()`) or past the end: for serving a read without the whole file.
    public func image(atByte offset: Int) -> Int? {
        guard offset >= firstImageOffset, offset < fileSize else { return nil }
        var end = firstImageOffset
        for (index, size) in imageSizes.enumerated() {
            end += size
            if offset < end { return index }
        }
        return nil
    }

    /// The bytes before the first JPEG: header and index. Depends on the layout alone.
    public func prefix() -> [UInt8] {
        var bytes = Self.magic
        bytes.reserveCapacity(firstImageOffset)
        for value in [Self.version, UInt32(imageCount), UInt32(intervalMilliseconds)] {
            bytes.appendLittleEndian(value)
        }
        bytes += [UInt8](repeating: 0, count: Self.headerBytes - bytes.count)
        for image in 0..<imageCount {
            bytes.appendLittleEndian(UInt32(image))
            bytes.appendLittleEndian(UInt32(offset(ofImage: image)))
        }
        bytes.appendLittleEndian(Self.endOfIndex)
        bytes.appendLittleEndian(UInt32(fileSize))
        return bytes
    }

    /// The whole file: `prefix()` then `images` back to back.
    /// - Throws: `MediaError.imageFailed` when the images are not as many or as long as the layout's.
    public func file(images: [[UInt8]]) throws -> [UInt8] {
        guard images.map(\.count) == imageSizes else {
            throw MediaError.imageFailed(reason: "BIF images of \(images.map(\.count)) bytes, not \(imageSizes)")
        }
        var bytes = prefix()
        bytes.reserveCapacity(fileSize)
        for image in images { bytes += image }
        return bytes
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` as 4 bytes, least significant first.
    mutating func appendLittleEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
    }
}
