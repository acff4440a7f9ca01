/// Writes a raw PGS (Blu-ray presentation graphics) subtitle stream, the `.sup` file the ffmpeg
/// command reads: the ffmpeg command encodes no PGS, and makes bitmap subtitles only from bitmap
/// ones, so the test media's picture subtitles start here (`ServerMedia`).
///
/// Each segment: `PG`, PTS and DTS (32-bit, 90 kHz), type, 16-bit length, payload; all big-endian.
/// A cue is a display set (composition, window, palette, object, end) at its start, and an
/// empty composition at its end; a stream opens with an empty one at 0 so that it starts at 0.
public struct PGSWriter: Sendable {
    /// One picture on screen from `start` to `end` (seconds): `width` × `height` pixels at
    /// `x`, `y` on a 1920×1080 screen, drawn by `pattern` (a palette index 0–3 per pixel).
    public struct Cue: Sendable {
        public var start: Double
        public var end: Double
        public var x: Int, y: Int, width: Int, height: Int
        public var pattern: @Sendable (_ column: Int, _ row: Int) -> UInt8

        public init(start: Double, end: Double, x: Int, y: Int, width: Int, height: Int,
                    pattern: @escaping @Sendable (Int, Int) -> UInt8) {
            self.start = start
            self.end = end
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.pattern = pattern
        }
    }

    public var cues: [Cue]

    public init(cues: [Cue]) { self.cues = cues }

    /// The `.sup` file's bytes.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var composition = 0
        func next() -> Int {
            defer { composition += 1 }
            return composition
        }
        out += clear(at: 0, number: next(), x: 0, y: 0, width: 1, height: 1)
        for cue in cues {
            let start = Self.clock(cue.start)
            out += segment(start, 0x16, Self.be16(1920) + Self.be16(1080) + [0x10] + Self.be16(next()) + [0x80, 0, 0, 1]
                           + Self.be16(0) + [0, 0] + Self.be16(cue.x) + Self.be16(cue.y))
            out += segment(start, 0x17, [1, 0] + Self.be16(cue.x) + Self.be16(cue.y) + Self.be16(cue.width) + Self.be16(cue.height))
            // Palette: Y, Cr, Cb, alpha per entry; 0 stays transparent.
            out += segment(start, 0x14, [0, 0] + [1, 235, 128, 128, 255] + [2, 81, 90, 240, 255] + [3, 145, 54, 34, 255])
            let data = rle(cue)
            let length = data.count + 4
            out += segment(start, 0x15, Self.be16(0) + [0, 0xC0] + [UInt8(length >> 16), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                           + Self.be16(cue.width) + Self.be16(cue.height) + data)
            out += segment(start, 0x80, [])
            out += clear(at: Self.clock(cue.end), number: next(), x: cue.x, y: cue.y, width: cue.width, height: cue.height)
        }
        return out
    }

    /// An empty composition (nothing shown) and its window.
    private func clear(at time: UInt32, number: Int, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        segment(time, 0x16, Self.be16(1920) + Self.be16(1080) + [0x10] + Self.be16(number) + [0, 0, 0, 0])
            + segment(time, 0x17, [1, 0] + Self.be16(x) + Self.be16(y) + Self.be16(width) + Self.be16(height))
            + segment(time, 0x80, [])
    }

    /// A segment; its length is 16 bits (an object of more than 65,535 bytes would need several
    /// object segments, which this writer does not make).
    private func segment(_ time: UInt32, _ type: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= 0xFFFF, "a PGS segment of \(payload.count) bytes")
        return [0x50, 0x47] + Self.be32(time) + Self.be32(0) + [type] + Self.be16(payload.count) + payload
    }

    /// The picture run-length coded, line by line: a run of one non-zero colour is the colour's
    /// byte; longer runs `00` then a length (6 or 14 bits) with the colour after when not 0; `00 00` ends a line.
    private func rle(_ cue: Cue) -> [UInt8] {
        var out: [UInt8] = []
        for row in 0..<cue.height {
            var column = 0
            while column < cue.width {
                let color = cue.pattern(column, row)
                var run = 1
                while column + run < cue.width && cue.pattern(column + run, row) == color && run < 16_383 { run += 1 }
                switch (color, run) {
                case (0, _) where run < 64: out += [0, UInt8(run)]
                case (0, _): out += [0, 0x40 | UInt8(run >> 8), UInt8(run & 0xFF)]
                case (_, 1), (_, 2): out += [UInt8](repeating: color, count: run)
                case (_, _) where run < 64: out += [0, 0x80 | UInt8(run), color]
                default: out += [0, 0xC0 | UInt8(run >> 8), UInt8(run & 0xFF), color]
                }
                column += run
            }
            out += [0, 0]
        }
        return out
    }

    static func clock(_ seconds: Double) -> UInt32 { UInt32((seconds * 90_000).rounded()) }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
