import Foundation
import MediaKit

/// `chapters/chapters.json` and `chapters/chapters.txt` (see Docs/LAYOUT.md). The same folder
/// always gives the same bytes.
enum ChapterDocuments {
    /// The JSON document: every edition with its flags and every chapter with every title, and the
    /// listed chapters with their numbers, file names and chosen titles. `imageNames[i]` is the
    /// image file of `folder.entries[i]`, nil where that chapter has no image.
    static func json(_ folder: ChapterListing, fileName: String, preferred: [String], imageNames: [String?]) -> [UInt8] {
        let list = folder.list
        var numbers: [Int: Int] = [:]
        for entry in folder.entries { numbers[entry.index] = entry.number }
        let listed = zip(folder.entries, imageNames).map { entry, image in
            Listed(number: entry.number, file: image, start: seconds(entry.chapter.start),
                   end: seconds(entry.chapter.end), title: entry.title?.text,
                   language: entry.title.map { $0.language ?? "und" }, depth: entry.chapter.depth,
                   enabled: entry.chapter.isEnabled, uid: entry.chapter.uid,
                   titles: entry.chapter.titles.map(TitleEntry.init))
        }
        let editions = list.editions.enumerated().map { index, edition in
            EditionEntry(index: index, uid: edition.uid, isDefault: edition.isDefault, hidden: edition.isHidden, ordered: edition.isOrdered,
                         names: edition.names.map(TitleEntry.init),
                         chapters: edition.chapters.enumerated().map { position, chapter in
                             ChapterEntry(number: index == list.defaultEditionIndex ? numbers[position] : nil,
                                          uid: chapter.uid, start: seconds(chapter.start), end: seconds(chapter.end),
                                          depth: chapter.depth, hidden: chapter.isHidden, enabled: chapter.isEnabled,
                                          titles: chapter.titles.map(TitleEntry.init))
                         })
        }
        let document = Document(file: fileName, source: sourceName(list.source), preferredLanguages: preferred,
                                defaultEdition: list.defaultEditionIndex, chapters: listed, editions: editions)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values cannot fail; a failure here is a programming error.
        return Array(try! encoder.encode(document)) + [UInt8(ascii: "\n")]
    }

    /// The OGM form: `CHAPTER01=HH:MM:SS.mmm` and `CHAPTER01NAME=Title` for each listed chapter,
    /// numbered from 01 (wider beyond 99), with the chosen titles; control characters in a title
    /// become spaces so that each stays on its line. UTF-8, `\n` line ends.
    static func ogm(_ folder: ChapterListing) -> [UInt8] {
        let width = max(2, String(folder.entries.count).count)
        var text = ""
        for entry in folder.entries {
            let number = String(entry.number)
            let tag = "CHAPTER" + String(repeating: "0", count: width - number.count) + number
            text += tag + "=" + ClockText.cue(milliseconds: Int((max(0, entry.chapter.start) * 1000).rounded())) + "\n"
            text += tag + "NAME=" + oneLine(entry.title?.text ?? "") + "\n"
        }
        return Array(text.utf8)
    }

    /// `text` with control characters and line separators as spaces, trimmed.
    static func oneLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        return String(scalars).trimmingCharacters(in: .whitespaces)
    }

    static func seconds(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    static func sourceName(_ source: ChapterList.Source) -> String {
        switch source {
        case .matroska: return "matroska"
        case .quickTimeTracks: return "quicktime_chapter_tracks"
        case .neroChpl: return "nero_chpl"
        case .libavformat: return "libavformat"
        case .found: return "found"
        }
    }

    private struct Document: Encodable {
        var file: String
        var source: String
        var preferredLanguages: [String]
        var defaultEdition: Int?
        var chapters: [Listed]
        var editions: [EditionEntry]

        enum CodingKeys: String, CodingKey {
            case file, source, chapters, editions
            case preferredLanguages = "preferred_languages", defaultEdition = "default_edition"
        }
    }

    private struct Listed: Encodable {
        var number: Int
        var file: String?
        var start: Double
        var end: Double
        var title: String?
        var language: String?
        var depth: Int
        var enabled: Bool
        var uid: UInt64?
        var titles: [TitleEntry]
    }

    private struct EditionEntry: Encodable {
        var index: Int
        var uid: UInt64?
        /// The flag as stored (EditionFlagDefault); `default_edition` says which edition is used.
        var isDefault: Bool
        var hidden: Bool
        var ordered: Bool
        var names: [TitleEntry]
        var chapters: [ChapterEntry]

        enum CodingKeys: String, CodingKey {
            case index, uid, hidden, ordered, names, chapters
            case isDefault = "default"
        }
    }

    private struct ChapterEntry: Encodable {
        var number: Int?
        var uid: UInt64?
        var start: Double
        var end: Double
        var depth: Int
        var hidden: Bool
        var enabled: Bool
        var titles: [TitleEntry]
    }

    private struct TitleEntry: Encodable {
        var text: String
        var languages: [String]
        var countries: [String]?

        init(_ title: ChapterList.Title) {
            text = title.text
            languages = title.languages
            countries = title.countries.isEmpty ? nil : title.countries
        }
    }
}
