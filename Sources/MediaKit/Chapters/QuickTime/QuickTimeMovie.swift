/// The parts of a QuickTime/MP4 `moov` that chapters come from: the movie's timescale and
/// duration, the tracks, and the Nero `chpl` box.
struct QuickTimeMovie {
    /// The `moov` payload; track sample tables are ranges of it.
    let bytes: [UInt8]
    var timescale: UInt32 = 0
    var duration: UInt64 = 0
    var tracks: [QuickTimeTrack] = []
    /// The payload of `moov/udta/chpl`, where there is one.
    var nero: Range<Int>?

    /// Reads the `moov` of `file` (one bounded read, wherever it is) and parses what is needed.
    /// - Throws: `MediaError.damaged`, `.unsupported` (see `QuickTimeAtoms.readMovie`), `.io`.
    init(_ file: FileReader) throws {
        bytes = try QuickTimeAtoms.readMovie(file)
        for atom in try QuickTimeAtoms.children(of: bytes, in: 0..<bytes.count) {
            switch atom.type {
            case FourCC("mvhd"):
                var cursor = ByteCursor(bytes, range: atom.data)
                let version = try cursor.headerVersionSkippingTimes()
                timescale = try cursor.u32()
                duration = version == 1 ? try cursor.u64() : UInt64(try cursor.u32())
            case FourCC("trak"):
                tracks.append(try QuickTimeTrack(bytes, atom.data))
            case FourCC("udta"):
                nero = try QuickTimeAtoms.child(FourCC("chpl"), of: bytes, in: atom.data)?.data
            default:
                break
            }
        }
    }

    /// The movie's duration in seconds; nil where the header gives none.
    var seconds: Double? {
        timescale > 0 && duration > 0 && duration != UInt64(UInt32.max) && duration != .max
            ? Double(duration) / Double(timescale) : nil
    }

    /// The tracks named by any track's `tref`/`chap`, in the order first named, without duplicates.
    var chapterTracks: [QuickTimeTrack] {
        var ids: [UInt32] = []
        for id in tracks.flatMap(\.chapterReferences) where !ids.contains(id) { ids.append(id) }
        return ids.compactMap { id in tracks.first { $0.id == id } }
    }

    /// The IDs of the chapter image tracks: tracks named by any track's `tref`/`chap` whose samples
    /// are JPEG or PNG pictures (`QuickTimeTrack.imageCodec`).
    var chapterImageTrackIDs: Set<UInt32> { Set(chapterTracks.filter { $0.imageCodec != nil }.map(\.id)) }

    func track(id: UInt32) -> QuickTimeTrack? { tracks.first { $0.id == id } }
}
