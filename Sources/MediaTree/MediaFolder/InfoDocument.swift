import Foundation
import MediaKit

/// `info.json`: the probe as one tidy JSON document (see Docs/LAYOUT.md).
enum InfoDocument {
    /// The document of one probe with a gap where the file's name goes (`NamelessDocument`): encoded once
    /// per version of a file however many names it has.
    struct Template: Sendable {
        /// nil where the probe holds the placeholder: each name's document is encoded whole.
        let gap: NamelessDocument?
        /// The probe, for a name that is not UTF-8 (its document has one field more).
        let info: MediaInfo

        /// The document's bytes. The same `MediaInfo` and name always give the same bytes (keys are
        /// sorted). A name that is not UTF-8 goes in `file` escaped (`Name.escaped`: `\xHH` for a
        /// byte that is not part of a character) and byte for byte in `file_bytes`, a list of
        /// numbers, so the document stays valid UTF-8 and the name can be recovered.
        func document(fileName: Name) -> [UInt8] {
            guard let text = fileName.string else {
                return InfoDocument.document(info, file: fileName.escaped, fileBytes: fileName.bytes)
            }
            return gap?.filled(with: text) ?? InfoDocument.document(info, file: text)
        }
    }

    /// The template of `info`'s document.
    static func template(_ info: MediaInfo) -> Template {
        Template(gap: NamelessDocument { document(info, file: $0) }, info: info)
    }

    /// `info`'s document with `file` (and `fileBytes`, for a name that is not UTF-8).
    private static func document(_ info: MediaInfo, file: String, fileBytes: [UInt8]? = nil) -> [UInt8] {
        encode(Document(file: file, fileBytes: fileBytes, container: info.container, streams: info.streams,
                        chapters: info.chapters, tags: info.tags)) + [UInt8(ascii: "\n")]
    }

    /// Encodes `value` as the document is encoded: pretty, keys sorted and in snake case, slashes
    /// kept. Encoding plain values cannot fail; a failure here is a programming error.
    private static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Array(try! encoder.encode(value))
    }

    private struct Document: Encodable {
        var file: String
        var fileBytes: [UInt8]? = nil
        var container: MediaInfo.Container
        var streams: [MediaInfo.Stream]
        var chapters: [MediaInfo.Chapter]
        var tags: [String: String]
    }
}
