/// Edits the boxes of an MP4 file in memory, for tests that need a file the ffmpeg command does not
/// write (a Dolby Vision configuration record, say).
public enum MP4Boxes {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `data` with `box` appended inside the box reached by `path` of box types from the top
    /// (`["moov", "trak", …, "stsd", "hvc1"]`), every box around it grown by its size. The `moov`
    /// must come after `mdat`, so that no chunk offset moves.
    public static func appending(_ box: [UInt8], inside path: [String], of data: [UInt8]) throws -> [UInt8] {
        func size(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        func type(_ at: Int) -> String { String(decoding: data[at + 4..<at + 8], as: UTF8.self) }
        /// The offsets of the boxes between `start` and `end`.
        func boxes(_ start: Int, _ end: Int) -> [Int] {
            var offsets: [Int] = [], at = start
            while at + 8 <= end && size(at) >= 8 {
                offsets.append(at)
                at += size(at)
            }
            return offsets
        }
        let top = boxes(0, data.count)
        guard let mdat = top.first(where: { type($0) == "mdat" }), let moov = top.first(where: { type($0) == "moov" }), mdat < moov else {
            throw Failure(description: "moov must come after mdat")
        }
        var chain: [Int] = []
        var (start, end) = (0, data.count)
        for kind in path {
            guard let at = boxes(start, end).first(where: { type($0) == kind }) else { throw Failure(description: "no \(kind)") }
            chain.append(at)
            // stsd: version, flags and entry count before its entries.
            (start, end) = (at + (kind == "stsd" ? 16 : 8), at + size(at))
        }
        var edited = data
        edited.insert(contentsOf: box, at: chain.last! + size(chain.last!))
        for at in chain {
            let grown = size(at) + box.count
            edited.replaceSubrange(at..<at + 4, with: (0..<4).map { UInt8(truncatingIfNeeded: grown >> (24 - 8 * $0)) })
        }
        return edited
    }

    /// A `dvcC` box (Dolby's ISO base media format spec): version 1.0, `profile` at level 6, RPU
    /// and base layer present, no enhancement layer, the base layer's `compatibility` id.
    public static func dolbyVisionConfiguration(profile: Int, compatibility: Int) -> [UInt8] {
        let bits = profile << 9 | 6 << 3 | 1 << 2 | 0 << 1 | 1
        return [0, 0, 0, 32] + Array("dvcC".utf8) + [1, 0, UInt8(bits >> 8), UInt8(bits & 0xFF), UInt8(compatibility << 4), 0, 0, 0]
            + [UInt8](repeating: 0, count: 16)
    }
}
