import MediaKit

/// What `chapters/` lists for one version of a media file: the chapters a player lists, numbered
/// and named, with the title chosen for the reader. Made from the chapter list alone (no image,
/// no read beyond the chapter headers).
struct ChapterListing: Sendable {
    /// One listed chapter.
    struct Entry: Sendable {
        /// 1-based, in the order listed.
        var number: Int
        /// Its index in the default edition's `chapters` (what `MediaService.chapterImage` takes).
        var index: Int
        var chapter: ChapterList.Chapter
        /// The title that best matches the preferred languages; nil for a chapter without titles.
        var title: ChapterList.Title?
        /// The image's name, `NN HHhMMmSSs Title.png`.
        var fileName: String

        /// The image's name in `format`: `NN HHhMMmSSs Title.png` or `.jpg`.
        func name(_ format: ImageFormat) -> Name {
            Name(String(fileName.dropLast(4)) + "." + format.fileExtension)
        }
    }

    var list: ChapterList
    /// The visible chapters of the default edition, by start time (file order for equal starts,
    /// so a parent comes before a chapter nested in it that starts with it).
    var entries: [Entry]
    /// Entry positions by file name.
    private var positions: [String: Int]

    /// The folder for `list` as a reader preferring `preferred` sees it; nil when the default
    /// edition has no visible chapter (then there is no `chapters/`).
    init?(list: ChapterList, preferred: [String]) {
        guard let edition = list.defaultEdition else { return nil }
        let listed = edition.chapters.enumerated()
            .filter { !$0.element.isHidden }
            .sorted { a, b in a.element.start != b.element.start ? a.element.start < b.element.start : a.offset < b.offset }
        guard !listed.isEmpty else { return nil }
        let titles = listed.map { $0.element.bestTitle(preferred: preferred) }
        let names = ChapterNames.names(starts: listed.map(\.element.start), titles: titles.map { $0?.text },
                                       reserved: [MediaFolderNames.chaptersJSON.string!, MediaFolderNames.chaptersText.string!])
        entries = listed.indices.map { i in
            Entry(number: i + 1, index: listed[i].offset, chapter: listed[i].element, title: titles[i], fileName: names[i])
        }
        positions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($0.element.fileName, $0.offset) })
        self.list = list
    }

    /// The entry whose image is called `name` (with `.png`, whatever its format), and the format
    /// its extension asks for.
    func entry(named name: Name) -> (entry: Entry, format: ImageFormat)? {
        guard let text = name.string, let dot = text.lastIndex(of: "."),
              let format = ImageFormat(fileExtension: text[text.index(after: dot)...]),
              Name(String(text[..<dot]) + "." + format.fileExtension) == name,
              let position = positions[String(text[..<dot]) + ".png"] else { return nil }
        return (entries[position], format)
    }

    /// The entry for the chapter at `index` in the default edition.
    func entry(index: Int) -> Entry? { entries.first { $0.index == index } }
}
