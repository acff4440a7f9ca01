import CAV
import SystemPackage

/// Chapters as libavformat gives them (`AVChapter`): one title per chapter, the language from the
/// chapter's `language` tag where a demuxer sets one. The fallback for formats mediafs does not
/// read itself (MP3 ID3 CHAP, Ogg, …) and for files where its own readers find nothing.
enum LibavChapters {
    /// - Throws: `MediaError.notMedia` if libavformat cannot read the header, `.timedOut` past
    ///   `timeout`, `.unreadable` where reading the file failed.
    static func read(path: FilePath, timeout: Double) throws -> ChapterList {
        let file = try InputFile(path: path, timeout: timeout, findStreamInfo: false)
        let chapters = file.chapters.map { pointer -> ChapterList.Chapter in
            let chapter = pointer.pointee
            let base = av_q2d(chapter.time_base)
            let tags = Metadata.dictionary(chapter.metadata)
            let titles = tags["title"].map { [ChapterList.Title(text: $0, languages: tags["language"].map { [$0] } ?? [])] } ?? []
            return ChapterList.Chapter(uid: UInt64(bitPattern: chapter.id),
                                       start: Prober.microseconds(Double(chapter.start) * base),
                                       end: Prober.microseconds(Double(chapter.end) * base),
                                       titles: titles)
        }
        try file.checkReads()
        return ChapterList(source: .libavformat, editions: chapters.isEmpty ? [] : [ChapterList.Edition(chapters: chapters)])
    }
}
