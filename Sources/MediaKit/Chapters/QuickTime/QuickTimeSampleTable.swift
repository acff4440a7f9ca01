/// One sample of a track: where its bytes are in the file and when it plays, in the track's units.
struct QuickTimeSample: Equatable {
    var offset: Int64
    var size: Int
    var time: Int64
    var duration: Int64
}

/// Expands a track's sample table (`stts`, `stsz`, `stsc`, `stco`/`co64`) into samples.
///
/// Used for chapter tracks only, which have one sample per chapter; audio and video tables are
/// never expanded. Edit lists (`elst`) are not applied: chapter tracks start at 0.
enum QuickTimeSampleTable {
    /// More samples than this is taken as damage for a chapter track (films have tens of
    /// chapters, long audiobooks a few hundred).
    static let maximumSamples = 20_000

    /// The samples of the table whose payload is `range` of the movie's `bytes`.
    /// - Throws: `MediaError.damaged` for missing or inconsistent tables.
    static func samples(_ bytes: [UInt8], _ range: Range<Int>) throws -> [QuickTimeSample] {
        var stts: QuickTimeAtom?, stsz: QuickTimeAtom?, stsc: QuickTimeAtom?, chunkOffsets: QuickTimeAtom?
        var offsetSize = 4
        for atom in try QuickTimeAtoms.children(of: bytes, in: range) {
            switch atom.type {
            case FourCC("stts"): stts = atom
            case FourCC("stsz"): stsz = atom
            case FourCC("stsc"): stsc = atom
            case FourCC("stco"): chunkOffsets = atom; offsetSize = 4
            case FourCC("co64"): chunkOffsets = atom; offsetSize = 8
            default: break
            }
        }
        guard let stts, let stsz, let stsc, let chunkOffsets else {
            throw MediaError.damaged(reason: "a chapter track's sample table lacks stts, stsz, stsc or stco")
        }
        let sizes = try sampleSizes(bytes, stsz)
        let offsets = try self.chunkOffsets(bytes, chunkOffsets, width: offsetSize)
        let places = try samplePlaces(bytes, stsc, sizes: sizes, chunkOffsets: offsets)
        let times = try sampleTimes(bytes, stts, count: sizes.count)
        return sizes.indices.map { i in
            QuickTimeSample(offset: places[i], size: sizes[i], time: times[i].time, duration: times[i].duration)
        }
    }

    private static func sampleSizes(_ bytes: [UInt8], _ atom: QuickTimeAtom) throws -> [Int] {
        var cursor = ByteCursor(bytes, range: atom.data)
        try cursor.skip(4)
        let common = try cursor.u32()
        let count = Int(try cursor.u32())
        guard count <= maximumSamples else {
            throw MediaError.damaged(reason: "a chapter track of \(count) samples")
        }
        if common != 0 { return Array(repeating: Int(common), count: count) }
        return try (0..<count).map { _ in Int(try cursor.u32()) }
    }

    private static func chunkOffsets(_ bytes: [UInt8], _ atom: QuickTimeAtom, width: Int) throws -> [Int64] {
        var cursor = ByteCursor(bytes, range: atom.data)
        try cursor.skip(4)
        let count = Int(try cursor.u32())
        guard count <= cursor.remaining / width else {
            throw MediaError.damaged(reason: "\(count) chunk offsets in \(cursor.remaining) bytes")
        }
        return try (0..<count).map { _ in Int64(bitPattern: try cursor.unsigned(width)) }
    }

    /// The file offset of each sample: chunks hold runs of samples (`stsc`), one after another.
    private static func samplePlaces(_ bytes: [UInt8], _ atom: QuickTimeAtom, sizes: [Int], chunkOffsets: [Int64]) throws -> [Int64] {
        var cursor = ByteCursor(bytes, range: atom.data)
        try cursor.skip(4)
        let count = Int(try cursor.u32())
        guard count <= cursor.remaining / 12 else { throw MediaError.damaged(reason: "\(count) stsc entries in \(cursor.remaining) bytes") }
        let runs = try (0..<count).map { _ -> (firstChunk: Int, perChunk: Int) in
            let first = Int(try cursor.u32())
            let perChunk = Int(try cursor.u32())
            try cursor.skip(4)
            return (first, perChunk)
        }
        var places: [Int64] = []
        places.reserveCapacity(sizes.count)
        for (index, run) in runs.enumerated() {
            let lastChunk = index + 1 < runs.count ? runs[index + 1].firstChunk - 1 : chunkOffsets.count
            // Runs must go forward, which also bounds the work by the number of chunks.
            guard run.firstChunk >= 1, lastChunk <= chunkOffsets.count,
                  index == 0 || run.firstChunk > runs[index - 1].firstChunk else {
                throw MediaError.damaged(reason: "stsc names chunk \(run.firstChunk) of \(chunkOffsets.count) out of order")
            }
            guard run.firstChunk <= lastChunk else { continue }
            for chunk in run.firstChunk...lastChunk {
                var offset = chunkOffsets[chunk - 1]
                for _ in 0..<min(run.perChunk, sizes.count - places.count) {
                    places.append(offset)
                    offset = offset &+ Int64(sizes[places.count - 1])
                }
                if places.count == sizes.count { return places }
            }
        }
        throw MediaError.damaged(reason: "the chunks hold \(places.count) of \(sizes.count) samples")
    }

    /// Each sample's time and duration from the runs of equal durations (`stts`). Samples the
    /// table does not reach last no time.
    private static func sampleTimes(_ bytes: [UInt8], _ atom: QuickTimeAtom, count: Int) throws -> [(time: Int64, duration: Int64)] {
        var cursor = ByteCursor(bytes, range: atom.data)
        try cursor.skip(4)
        let entries = Int(try cursor.u32())
        guard entries <= cursor.remaining / 8 else { throw MediaError.damaged(reason: "\(entries) stts entries in \(cursor.remaining) bytes") }
        var result: [(time: Int64, duration: Int64)] = []
        result.reserveCapacity(count)
        var time: Int64 = 0
        for _ in 0..<entries where result.count < count {
            let run = Int(try cursor.u32())
            let delta = Int64(try cursor.u32())
            for _ in 0..<min(run, count - result.count) {
                result.append((time, delta))
                time += delta  // at most 100,000 × 2^32: no overflow
            }
        }
        while result.count < count { result.append((time, 0)) }
        return result
    }
}
