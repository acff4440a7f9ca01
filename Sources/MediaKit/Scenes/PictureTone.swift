import CAV

/// What a picture is at a glance, for the credits at a film's end (`EndCredits`): a picture of
/// the film, black, or lines of text on a flat black ground.
///
/// Read from the luma plane on a grid of at most about 640 samples across. Text on black is told
/// from a dark scene by what rolled or carded credits are and a night shot is not: a ground of one
/// flat level (a lit city crushed to black still has texture around its windows, and more of its
/// picture bright), bright samples in thin horizontal bands with empty rows between (lines of
/// text; windows, stars and lamps are spread over every row), and several bright runs along each
/// row they touch (letters; a star or a lamp is one).
enum PictureTone: Sendable, Equatable {
    case picture, black, textOnBlack

    /// Whether it may belong to credits on black (a black frame between cards, or text).
    var isDark: Bool { self != .picture }

    /// A level at or under this (8 bits) is dark: black on either range (16 limited, 0 full)
    /// with the noise of compression.
    static let darkLevel = 40
    /// At or over this is ink: text, even thin and antialiased, on black.
    static let inkLevel = 90
    /// How near to the ground's level a sample must be to count as the flat ground.
    static let flatReach = 4

    /// What was counted, as shares of the samples (or of the rows sampled).
    struct Measure {
        /// Samples within `flatReach` of the most common dark level (none: 0).
        var flat = 0.0
        /// Samples at or over `inkLevel`.
        var ink = 0.0
        /// Rows with any ink.
        var inkedRows = 0.0
        /// The mean height of a band of consecutive inked rows, as a share of the rows.
        var bandHeight = 0.0
        /// Runs of ink along an inked row, on average.
        var runsPerRow = 0.0

        var tone: PictureTone {
            if flat >= 0.98 && ink < 0.001 { return .black }
            let isText = flat >= 0.88 && ink >= 0.001 && ink <= 0.2 && inkedRows <= 0.75 && bandHeight <= 0.1 && runsPerRow >= 4
            return isText ? .textOnBlack : .picture
        }
    }

    /// The tone of `frame`: `.picture` for a frame that is not planar YUV (RGB, palettes), where
    /// credits on black are not looked for.
    init(of frame: Frame) {
        self = Self.measure(frame)?.tone ?? .picture
    }

    /// What `frame`'s luma plane holds, if it is planar YUV of 8 to 16 bits.
    static func measure(_ frame: Frame) -> Measure? {
        let f = frame.pointer.pointee
        guard f.width > 0, f.height > 0, f.format >= 0, let base = f.data.0,
              let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: f.format))?.pointee,
              descriptor.nb_components >= 3, descriptor.comp.0.plane == 0,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_BE) == 0,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0, descriptor.comp.0.depth <= 16 else { return nil }
        let width = Int(f.width), height = Int(f.height), stride = Int(f.linesize.0)
        let shift = Int(descriptor.comp.0.depth) - 8
        let step = max(1, width / 640)
        var histogram = [Int](repeating: 0, count: 256)
        var samples = 0, inked = 0, inkedRows = 0, rows = 0, runs = 0, bands = 0
        var inBand = false
        var y = step / 2
        while y < height {
            let line = UnsafeRawPointer(base) + y * stride
            var rowInk = 0, wasInk = false
            var x = step / 2
            while x < width {
                let value = shift <= 0 ? Int(line.load(fromByteOffset: x, as: UInt8.self))
                    : Int(line.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)) >> shift
                let level = min(255, value)
                histogram[level] += 1
                let isInk = level >= inkLevel
                if isInk {
                    rowInk += 1
                    if !wasInk { runs += 1 }
                }
                wasInk = isInk
                x += step
                samples += 1
            }
            rows += 1
            inked += rowInk
            if rowInk > 0 {
                inkedRows += 1
                if !inBand { bands += 1 }
            }
            inBand = rowInk > 0
            y += step
        }
        guard samples > 0 else { return nil }
        let ground = histogram[0...darkLevel].indices.max { histogram[$0] < histogram[$1] }!
        let flat = histogram[max(0, ground - flatReach)...(ground + flatReach)].reduce(0, +)
        return Measure(flat: histogram[ground] > 0 ? Double(flat) / Double(samples) : 0,
                       ink: Double(inked) / Double(samples),
                       inkedRows: Double(inkedRows) / Double(rows),
                       bandHeight: bands > 0 ? Double(inkedRows) / Double(bands) / Double(rows) : 0,
                       runsPerRow: inkedRows > 0 ? Double(runs) / Double(inkedRows) : 0)
    }
}
