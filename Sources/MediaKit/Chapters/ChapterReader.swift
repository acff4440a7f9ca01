import SystemPackage

/// Reads a file's chapters with the richest reader that knows its format.
enum ChapterReader {
    /// Matroska/WebM and QuickTime files are read by mediafs's own readers; anything else, or a
    /// file where those find no chapters, by libavformat. When an own reader fails on damage,
    /// libavformat is tried too; if it has no chapters either, the own reader's error is thrown,
    /// as it says more. A read of the file that fails is thrown whichever reader meets it.
    /// - Parameter size: the file's size as the caller saw it; reads stop there.
    /// - Throws: `MediaError`.
    static func read(path: FilePath, size: Int64, timeout: Double) throws -> ChapterList {
        let file = try FileReader(path: path, length: size > 0 ? size : nil)
        let own: Result<ChapterList, Error>
        switch ContainerFamily(head: try file.read(at: 0, count: 16)) {
        case .matroska: own = Result { try MatroskaChapterReader.read(file) }
        case .quickTime: own = Result { try QuickTimeChapterReader.read(file) }
        case .other: return try LibavChapters.read(path: path, timeout: timeout)
        }
        if case .success(let list) = own, !list.isEmpty { return list }
        // A read that failed is thrown: libavformat's fewer titles are no stand-in for them.
        if case .failure(let error as MediaError) = own, error.mayPass { throw error }
        let fallback = try MediaError.unlessDamaged { try LibavChapters.read(path: path, timeout: timeout) }
        if let fallback, !fallback.isEmpty { return fallback }
        return try own.get()
    }

    /// The bytes of the own image of chapter `index` of the default edition; nil when that
    /// chapter has none (or there is no such chapter).
    /// - Throws: `MediaError`.
    static func image(path: FilePath, size: Int64, index: Int, timeout: Double) throws -> ChapterImage? {
        let list = try read(path: path, size: size, timeout: timeout)
        guard list.source == .quickTimeTracks, let chapters = list.defaultEdition?.chapters,
              chapters.indices.contains(index), let artwork = chapters[index].artwork else { return nil }
        let file = try FileReader(path: path, length: size > 0 ? size : nil)
        return try QuickTimeChapterReader.image(file, artwork: artwork)
    }
}
