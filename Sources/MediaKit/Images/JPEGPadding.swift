/// Pads a JPEG file to an exact length with comment (COM, 0xFFFE) segments placed right after
/// the JFIF APP0 segment, where the JFIF specification allows other segments and every decoder
/// skips them.
enum JPEGPadding {
    /// The largest COM segment: its 2-byte marker and a length field of at most 65,535, which
    /// counts itself.
    static let largestSegment = 2 + 65_535
    /// The smallest: a marker and an empty comment.
    static let smallestSegment = 4
    /// The text at the start of the first comment, where it has room; zero bytes fill the rest.
    static let note = Array("mediafs: padding to a length known before encoding".utf8)
    /// SOI and the JFIF APP0 segment libjpeg writes: 2 + 2 + 16 bytes.
    static let headerLength = 20

    /// Whether a file of `length` bytes can be padded to `target`: no padding, or room for at
    /// least one whole segment (1–3 bytes cannot be padded).
    static func canPad(_ length: Int, to target: Int) -> Bool {
        length == target || length + smallestSegment <= target
    }

    /// The lengths of the segments that pad `count` bytes (0 or at least 4): full segments, and
    /// the last one at least `smallestSegment` long (taken from the one before it if need be).
    static func segmentLengths(padding count: Int) -> [Int] {
        precondition(count == 0 || count >= smallestSegment)
        var lengths: [Int] = []
        var left = count
        while left > 0 {
            var length = min(left, largestSegment)
            if left - length > 0 && left - length < smallestSegment {
                length -= smallestSegment - (left - length)
            }
            lengths.append(length)
            left -= length
        }
        return lengths
    }

    /// `jpeg` (as libjpeg writes it: SOI then the JFIF APP0 segment) with COM segments after the
    /// APP0 that make it exactly `target` bytes long.
    /// - Throws: `MediaError.imageFailed` when `jpeg` does not start with SOI and JFIF APP0 or
    ///   cannot be padded to `target` (`canPad`); neither is expected of libjpeg's output.
    static func pad(_ jpeg: [UInt8], to target: Int) throws -> [UInt8] {
        guard canPad(jpeg.count, to: target) else {
            throw MediaError.imageFailed(reason: "a JPEG of \(jpeg.count) bytes cannot be padded to \(target)")
        }
        guard jpeg.count > headerLength, jpeg[0] == 0xFF, jpeg[1] == 0xD8, jpeg[2] == 0xFF, jpeg[3] == 0xE0,
              Int(jpeg[4]) << 8 | Int(jpeg[5]) == headerLength - 4 else {
            throw MediaError.imageFailed(reason: "libjpeg's file does not start with SOI and a JFIF APP0 segment")
        }
        if jpeg.count == target { return jpeg }
        var out: [UInt8] = []
        out.reserveCapacity(target)
        out.append(contentsOf: jpeg[..<headerLength])
        for (index, length) in segmentLengths(padding: target - jpeg.count).enumerated() {
            out.append(contentsOf: [0xFF, 0xFE, UInt8((length - 2) >> 8), UInt8((length - 2) & 0xFF)])
            let room = length - smallestSegment
            let text = index == 0 && room >= note.count ? note : []
            out.append(contentsOf: text)
            out.append(contentsOf: repeatElement(0, count: room - text.count))
        }
        out.append(contentsOf: jpeg[headerLength...])
        return out
    }
}
