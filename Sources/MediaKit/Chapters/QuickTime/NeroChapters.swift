/// The Nero chapter list (`moov/udta/chpl`) that ffmpeg and many taggers write beside (or instead
/// of) a QuickTime chapter track: start times in 100 ns units and UTF-8 titles, no ends, no
/// languages.
enum NeroChapters {
    /// The chapters in `range` (the `chpl` payload) of `bytes`.
    /// - Parameter duration: the movie's duration in seconds, the end of the last chapter.
    /// - Throws: `MediaError.damaged` when the list is cut short.
    static func chapters(_ bytes: [UInt8], _ range: Range<Int>, duration: Double?) throws -> [ChapterList.Chapter] {
        var cursor = ByteCursor(bytes, range: range)
        let version = try cursor.u8()
        try cursor.skip(3)
        if version >= 1 { try cursor.skip(4) }
        let count = Int(try cursor.u8())
        var marks: [(start: Double, title: String)] = []
        for _ in 0..<count {
            let start = Double(try cursor.u64()) / 10_000_000
            let length = Int(try cursor.u8())
            let title = String(decoding: try cursor.read(length), as: UTF8.self)
            marks.append((start, title))
        }
        return marks.indices.map { i in
            let end = i + 1 < marks.count ? marks[i + 1].start : (duration ?? marks[i].start)
            return ChapterList.Chapter(uid: UInt64(i + 1), start: marks[i].start, end: end,
                                       titles: marks[i].title.isEmpty ? [] : [ChapterList.Title(text: marks[i].title, languages: [])])
        }
    }
}
