/// Every chapter a media file holds, with more than libavformat keeps: all editions, every title
/// in every language, the flags, the UIDs and a reference to per-chapter artwork.
///
/// Plain values only (`Codable`), so that it can be stored, compared, and sent across a process
/// boundary. Times are in seconds from the start of the file's timeline.
public struct ChapterList: Codable, Sendable, Equatable {
    /// Where the chapters were read from.
    public enum Source: String, Codable, Sendable {
        /// The Matroska/WebM `Chapters` element, read by mediafs.
        case matroska
        /// QuickTime chapter tracks (text tracks, and an image track, named by `tref`/`chap`), read by mediafs.
        case quickTimeTracks
        /// The Nero `chpl` box in `moov/udta`, read by mediafs: titles without a language.
        case neroChpl
        /// libavformat's `AVChapter`s: one title per chapter, every edition's chapters in one list.
        case libavformat
        /// None in the file: made by mediafs from the scenes, intro and credits its analysis found.
        case found
    }

    public var source: Source
    /// In file order. Formats without editions have one.
    public var editions: [Edition]
    /// The index in `editions` of the edition a player shows: the first with `isDefault`, else the
    /// first; nil when there are no editions.
    public var defaultEditionIndex: Int?

    public init(source: Source, editions: [Edition], defaultEditionIndex: Int? = nil) {
        self.source = source
        self.editions = editions
        self.defaultEditionIndex = defaultEditionIndex
            ?? editions.firstIndex(where: \.isDefault) ?? (editions.isEmpty ? nil : 0)
    }

    /// The edition a player shows; nil when there are no editions.
    public var defaultEdition: Edition? {
        defaultEditionIndex.flatMap { editions.indices.contains($0) ? editions[$0] : nil }
    }

    /// True when no edition has a chapter.
    public var isEmpty: Bool { editions.allSatisfy { $0.chapters.isEmpty } }

    /// A group of chapters (a Matroska `EditionEntry`; the one list of other formats).
    public struct Edition: Codable, Sendable, Equatable {
        /// Matroska's EditionUID; nil where the format has none.
        public var uid: UInt64?
        /// EditionFlagDefault as stored (true for formats without editions).
        public var isDefault: Bool
        /// EditionFlagHidden as stored.
        public var isHidden: Bool
        /// EditionFlagOrdered: the chapters are segments played in this order, not just marks.
        public var isOrdered: Bool
        /// The edition's own names (Matroska v5 `EditionDisplay`), where it has any.
        public var names: [Title]
        /// Nested chapters flattened in file order (a parent before its children; see `Chapter.depth`).
        /// Not sorted by time: files may store chapters in any order.
        public var chapters: [Chapter]

        public init(uid: UInt64? = nil, isDefault: Bool = true, isHidden: Bool = false, isOrdered: Bool = false,
                    names: [Title] = [], chapters: [Chapter]) {
            self.uid = uid
            self.isDefault = isDefault
            self.isHidden = isHidden
            self.isOrdered = isOrdered
            self.names = names
            self.chapters = chapters
        }

        /// The chapters a player lists: those that are not hidden.
        public var visibleChapters: [Chapter] { chapters.filter { !$0.isHidden } }
    }

    /// One chapter: a time range with titles and, maybe, its own artwork.
    public struct Chapter: Codable, Sendable, Equatable {
        /// Matroska's ChapterUID; for QuickTime chapter tracks the 1-based sample number; for
        /// libavformat its `AVChapter.id`.
        public var uid: UInt64?
        /// Seconds.
        public var start: Double
        /// Seconds, never before `start`. Where the file stores no end (Matroska's ChapterTimeEnd is
        /// optional; Nero chapters have none) it is the start of the next chapter at the same or
        /// an outer level, else the end of the file (its duration), else `start`.
        public var end: Double
        /// 0 for a top-level chapter, 1 for a chapter nested in it, and so on.
        public var depth: Int
        /// Matroska's ChapterFlagHidden, true too for a chapter nested in a hidden one (the spec
        /// hides children with their parent). Players do not list hidden chapters.
        public var isHidden: Bool
        /// Matroska's ChapterFlagEnabled as stored (a disabled chapter is skipped by players that
        /// honour it). True for other formats.
        public var isEnabled: Bool
        /// Every title, in file order: one per Matroska `ChapterDisplay`, one per QuickTime
        /// chapter text track. May be empty.
        public var titles: [Title]
        /// The chapter's own image, where the file has one.
        public var artwork: Artwork?

        public init(uid: UInt64? = nil, start: Double, end: Double, depth: Int = 0, isHidden: Bool = false,
                    isEnabled: Bool = true, titles: [Title], artwork: Artwork? = nil) {
            self.uid = uid
            self.start = start
            self.end = max(end, start)
            self.depth = depth
            self.isHidden = isHidden
            self.isEnabled = isEnabled
            self.titles = titles
            self.artwork = artwork
        }
    }

    /// A chapter's (or an edition's) title in some language.
    public struct Title: Codable, Sendable, Equatable {
        public var text: String
        /// Every language code the file gives this title, as stored, BCP-47 codes first (Matroska
        /// says they win over the ISO 639-2 ones): Matroska's ChapLanguageBCP47 then ChapLanguage
        /// (which defaults to `eng` when absent, as the spec says); QuickTime's `elng` then the
        /// `mdhd` language as a three-letter code. Empty where the format has no language (Nero).
        public var languages: [String]
        /// Matroska's ChapCountry codes, as stored.
        public var countries: [String]

        public init(text: String, languages: [String], countries: [String] = []) {
            self.text = text
            self.languages = languages
            self.countries = countries
        }

        /// The first language code, as stored; nil where there is none.
        public var language: String? { languages.first }
    }

    /// A chapter's own image in the file.
    ///
    /// QuickTime/MP4 keeps chapter images as samples of a video track named by `tref`/`chap`
    /// (libavformat shows only the first as `attached_pic`). Matroska has no convention that ties
    /// an attachment to a chapter, so Matroska chapters have none.
    public struct Artwork: Codable, Sendable, Equatable {
        /// The QuickTime track ID (`tkhd`) of the chapter image track.
        public var trackID: UInt32
        /// The 0-based index of the sample in that track that holds this chapter's image.
        public var sample: Int
        /// FFmpeg's codec name for the image: `mjpeg` or `png`.
        public var codec: String
    }
}

/// The bytes of a chapter's own image, as stored in the file.
public struct ChapterImage: Codable, Sendable, Equatable {
    public var bytes: [UInt8]
    /// FFmpeg's codec name: `mjpeg` or `png`.
    public var codec: String

    public init(bytes: [UInt8], codec: String) {
        self.bytes = bytes
        self.codec = codec
    }

    /// The format the image is stored in, where mediafs can serve it as it is (`bytes`, byte for
    /// byte): JPEG or PNG; nil for another codec, which is converted (`MediaService.stillImage`).
    public var format: ImageFormat? { ImageFormat(codec: codec) }
}
