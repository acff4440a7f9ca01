/// What mediafs needs of a `trak`: its ID, its chapter references, its kind and language, and
/// where its sample table is (expanded only for chapter tracks, see `QuickTimeSampleTable`).
struct QuickTimeTrack {
    var id: UInt32 = 0
    /// Track IDs listed by `tref`/`chap`, in order.
    var chapterReferences: [UInt32] = []
    /// The `hdlr` handler type: `vide`, `soun`, `text`, `sbtl`, …
    var handler = FourCC(0)
    /// Units per second of the track's sample times (`mdhd`).
    var timescale: UInt32 = 0
    /// The `mdhd` language as a three-letter code.
    var language = "und"
    /// The `elng` extended language tag (BCP-47), where there is one.
    var extendedLanguage: String?
    /// The format of the first sample description (`stsd`): `text`, `tx3g`, `jpeg`, `png `, …
    var sampleFormat: FourCC?
    /// The payload of `mdia/minf/stbl` in the movie's bytes.
    var sampleTable: Range<Int>?

    /// The languages of the track's text, as stored: `elng` first, then the `mdhd` code.
    var languages: [String] { [extendedLanguage, language].compactMap { $0 } }

    /// A text track: chapter titles are text samples.
    var isText: Bool {
        [FourCC("text"), FourCC("sbtl"), FourCC("subt")].contains(handler)
            || [FourCC("text"), FourCC("tx3g")].contains(sampleFormat ?? FourCC(0))
    }

    /// FFmpeg's codec name for a video track of still images (the chapter image track), nil otherwise.
    var imageCodec: String? {
        guard handler == FourCC("vide") else { return nil }
        switch sampleFormat {
        case FourCC("jpeg"): return "mjpeg"
        case FourCC("png "): return "png"
        default: return nil
        }
    }

    /// Parses the `trak` whose payload is `range` of the movie's `bytes`.
    init(_ bytes: [UInt8], _ range: Range<Int>) throws {
        for atom in try QuickTimeAtoms.children(of: bytes, in: range) {
            switch atom.type {
            case FourCC("tkhd"):
                var cursor = ByteCursor(bytes, range: atom.data)
                _ = try cursor.headerVersionSkippingTimes()
                id = try cursor.u32()
            case FourCC("tref"):
                for reference in try QuickTimeAtoms.children(of: bytes, in: atom.data) where reference.type == FourCC("chap") {
                    var cursor = ByteCursor(bytes, range: reference.data)
                    while cursor.remaining >= 4 { chapterReferences.append(try cursor.u32()) }
                }
            case FourCC("mdia"):
                try readMedia(bytes, atom.data)
            default:
                break
            }
        }
    }

    private mutating func readMedia(_ bytes: [UInt8], _ range: Range<Int>) throws {
        for atom in try QuickTimeAtoms.children(of: bytes, in: range) {
            var cursor = ByteCursor(bytes, range: atom.data)
            switch atom.type {
            case FourCC("mdhd"):
                let version = try cursor.headerVersionSkippingTimes()
                timescale = try cursor.u32()
                try cursor.skip(version == 1 ? 8 : 4)
                language = QuickTimeLanguage.code(try cursor.u16())
            case FourCC("hdlr"):
                try cursor.skip(8)
                handler = FourCC(try cursor.u32())
            case FourCC("elng"):
                try cursor.skip(4)
                let tag = utf8UpToNUL(bytes, cursor.position..<cursor.end)
                if !tag.isEmpty { extendedLanguage = tag }
            case FourCC("minf"):
                guard let stbl = try QuickTimeAtoms.child(FourCC("stbl"), of: bytes, in: atom.data) else { break }
                sampleTable = stbl.data
                if let stsd = try QuickTimeAtoms.child(FourCC("stsd"), of: bytes, in: stbl.data) {
                    var entries = ByteCursor(bytes, range: stsd.data)
                    try entries.skip(4)
                    if try entries.u32() > 0 {
                        try entries.skip(4)
                        sampleFormat = FourCC(try entries.u32())
                    }
                }
            default:
                break
            }
        }
    }
}
