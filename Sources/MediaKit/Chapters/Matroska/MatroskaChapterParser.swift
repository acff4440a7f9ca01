/// Turns the data of a Matroska `Chapters` element into editions of flattened chapters.
enum MatroskaChapterParser {
    /// Chapters nested deeper than this are taken as damage (a real file nests two or three levels).
    static let maximumDepth = 32

    /// A chapter before its end is known: ChapterTimeEnd is optional.
    private struct Pending {
        var chapter: ChapterList.Chapter
        var storedEnd: Double?
    }

    /// The editions in `bytes` (the Chapters element's data), in file order.
    /// - Parameter duration: the segment's duration in seconds, the end of a last chapter without one.
    /// - Throws: `MediaError.damaged` for a broken element or nesting deeper than `maximumDepth`.
    static func editions(in bytes: [UInt8], duration: Double?) throws -> [ChapterList.Edition] {
        try EBML.children(of: bytes, in: 0..<bytes.count)
            .filter { $0.id == MatroskaID.editionEntry }
            .map { try edition(bytes, $0.data, duration: duration) }
    }

    private static func edition(_ bytes: [UInt8], _ range: Range<Int>, duration: Double?) throws -> ChapterList.Edition {
        var edition = ChapterList.Edition(isDefault: false, chapters: [])
        var pending: [Pending] = []
        for child in try EBML.children(of: bytes, in: range) {
            switch child.id {
            case MatroskaID.editionUID: edition.uid = try EBML.unsigned(bytes, child.data)
            case MatroskaID.editionFlagDefault: edition.isDefault = try EBML.unsigned(bytes, child.data) != 0
            case MatroskaID.editionFlagHidden: edition.isHidden = try EBML.unsigned(bytes, child.data) != 0
            case MatroskaID.editionFlagOrdered: edition.isOrdered = try EBML.unsigned(bytes, child.data) != 0
            case MatroskaID.editionDisplay: edition.names.append(try editionName(bytes, child.data))
            case MatroskaID.chapterAtom: try flatten(bytes, child.data, depth: 0, insideHidden: false, into: &pending)
            default: break
            }
        }
        edition.chapters = resolveEnds(pending, duration: duration)
        return edition
    }

    /// Appends the atom in `range` and then its nested atoms, depth first, in file order.
    private static func flatten(_ bytes: [UInt8], _ range: Range<Int>, depth: Int, insideHidden: Bool,
                                into result: inout [Pending]) throws {
        guard depth < maximumDepth else {
            throw MediaError.damaged(reason: "chapters nested more than \(maximumDepth) levels deep")
        }
        var chapter = ChapterList.Chapter(start: 0, end: 0, depth: depth, isHidden: insideHidden, titles: [])
        var storedEnd: Double?
        var nested: [Range<Int>] = []
        for child in try EBML.children(of: bytes, in: range) {
            switch child.id {
            case MatroskaID.chapterUID: chapter.uid = try EBML.unsigned(bytes, child.data)
            case MatroskaID.chapterTimeStart: chapter.start = seconds(try EBML.unsigned(bytes, child.data))
            case MatroskaID.chapterTimeEnd: storedEnd = seconds(try EBML.unsigned(bytes, child.data))
            case MatroskaID.chapterFlagHidden:
                let hidden = try EBML.unsigned(bytes, child.data) != 0
                chapter.isHidden = insideHidden || hidden
            case MatroskaID.chapterFlagEnabled: chapter.isEnabled = try EBML.unsigned(bytes, child.data) != 0
            case MatroskaID.chapterDisplay: chapter.titles.append(try display(bytes, child.data))
            case MatroskaID.chapterAtom: nested.append(child.data)
            default: break
            }
        }
        result.append(Pending(chapter: chapter, storedEnd: storedEnd))
        for atom in nested {
            try flatten(bytes, atom, depth: depth + 1, insideHidden: chapter.isHidden, into: &result)
        }
    }

    /// One ChapterDisplay: the string, its languages (BCP-47 first; ChapLanguage defaults to
    /// `eng` when the display has no language at all) and countries.
    private static func display(_ bytes: [UInt8], _ range: Range<Int>) throws -> ChapterList.Title {
        var text = ""
        var iso: [String] = []
        var bcp47: [String] = []
        var countries: [String] = []
        for child in try EBML.children(of: bytes, in: range) {
            switch child.id {
            case MatroskaID.chapString: text = EBML.string(bytes, child.data)
            case MatroskaID.chapLanguage: iso.append(EBML.string(bytes, child.data))
            case MatroskaID.chapLanguageBCP47: bcp47.append(EBML.string(bytes, child.data))
            case MatroskaID.chapCountry: countries.append(EBML.string(bytes, child.data))
            default: break
            }
        }
        if iso.isEmpty && bcp47.isEmpty { iso = ["eng"] }
        return ChapterList.Title(text: text, languages: bcp47 + iso, countries: countries)
    }

    private static func editionName(_ bytes: [UInt8], _ range: Range<Int>) throws -> ChapterList.Title {
        var text = ""
        var languages: [String] = []
        for child in try EBML.children(of: bytes, in: range) {
            switch child.id {
            case MatroskaID.editionString: text = EBML.string(bytes, child.data)
            case MatroskaID.editionLanguageIETF: languages.append(EBML.string(bytes, child.data))
            default: break
            }
        }
        return ChapterList.Title(text: text, languages: languages)
    }

    /// Chapters with their ends: as stored, else the start of the next chapter at the same or an
    /// outer level, else the segment's duration, else the start.
    private static func resolveEnds(_ pending: [Pending], duration: Double?) -> [ChapterList.Chapter] {
        // Walking backwards, nextStart[d] is the start of the nearest later chapter of depth <= d.
        var nextStart = [Double?](repeating: nil, count: maximumDepth + 1)
        var result = [ChapterList.Chapter]()
        result.reserveCapacity(pending.count)
        for item in pending.reversed() {
            var chapter = item.chapter
            let end = item.storedEnd ?? nextStart[chapter.depth] ?? duration ?? chapter.start
            chapter.end = max(end, chapter.start)
            for depth in chapter.depth...maximumDepth { nextStart[depth] = chapter.start }
            result.append(chapter)
        }
        return result.reversed()
    }

    /// Matroska chapter times are nanoseconds, whatever the TimestampScale.
    private static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}
