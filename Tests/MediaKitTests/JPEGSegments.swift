import Foundation

/// The marker segments of a JPEG file up to its first scan, read strictly: for tests that check
/// what `JPEGEncoder` writes (baseline JFIF, where the padding goes).
struct JPEGSegments {
    struct Segment {
        /// The marker's second byte (0xE0 for APP0, 0xC0 for SOF0, …).
        var marker: UInt8
        /// The segment's data, after its length field.
        var data: [UInt8]
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The segments from SOI to SOS, SOS included.
    var segments: [Segment]
    /// Whether the file ends with EOI.
    var endsWithEOI: Bool

    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw Malformed(description: "no SOI") }
        var at = 2
        var segments: [Segment] = []
        while true {
            guard at + 4 <= bytes.count, bytes[at] == 0xFF else { throw Malformed(description: "no marker at \(at)") }
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { throw Malformed(description: "bad length at \(at)") }
            segments.append(Segment(marker: marker, data: Array(bytes[at + 4 ..< at + 2 + length])))
            at += 2 + length
            if marker == 0xDA { break }
        }
        self.segments = segments
        endsWithEOI = bytes.suffix(2).elementsEqual([0xFF, 0xD9])
    }

    /// The markers in file order, as their second byte.
    var markers: [UInt8] { segments.map(\.marker) }

    func first(_ marker: UInt8) -> Segment? { segments.first { $0.marker == marker } }
}

/// Peak signal-to-noise ratio, in dB, between two 8-bit pictures of the same length (infinity
/// when they are equal).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && !a.isEmpty)
    var sum = 0.0
    for i in a.indices {
        let d = Double(Int(a[i]) - Int(b[i]))
        sum += d * d
    }
    let mse = sum / Double(a.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}
