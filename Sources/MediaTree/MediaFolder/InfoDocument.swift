import Foundation
import MediaKit

/// `info.json`: the probe as one tidy JSON document (see Docs/LAYOUT.md).
enum InfoDocument {
    /// The document of one probe with a gap where the file's name goes: encoded once per version
    /// of a file however many names it has (hard links; a library of copies of a few films lists
    /// thousands of `info.json` whose sizes all need the document).
    struct Template: Sendable {
        /// The bytes before the name's JSON string, and after it.
        let head: [UInt8]
        let tail: [UInt8]
        /// The probe, for a name that is not UTF-8 (its document has one field more).
        let info: MediaInfo

        /// The document's bytes. The same `MediaInfo` and name always give the same bytes (keys are
        /// sorted). A name that is not UTF-8 goes in `file` escaped (`Name.escaped`: `\xHH` for a
        /// byte that is not part of a character) and byte for byte in `file_bytes`, a list of
        /// numbers, so the document stays valid UTF-8 and the name can be recovered.
        func document(fileName: Name) -> [UInt8] {
            guard let text = fileName.string else {
                return InfoDocument.encode(Document(file: fileName.escaped, fileBytes: fileName.bytes, container: info.container,
                                                    streams: info.streams, chapters: info.chapters, tags: info.tags))
                    + [UInt8(ascii: "\n")]
            }
            return head + InfoDocument.encode(text) + tail
        }
    }

    /// The template of `info`'s document.
    static func template(_ info: MediaInfo) -> Template {
        let document = Document(file: placeholder, container: info.container, streams: info.streams,
                                chapters: info.chapters, tags: info.tags)
        let bytes = encode(document) + [UInt8(ascii: "\n")]
        let gap = encode(placeholder)
        // No string from a file holds the placeholder (control characters and a fixed random tag).
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: gap) }) else {
            preconditionFailure("the placeholder is missing from the encoded document")
        }
        return Template(head: Array(bytes[..<start]), tail: Array(bytes[(start + gap.count)...]), info: info)
    }

    /// A name no file has: control characters, a fixed random tag.
    private static let placeholder = "\u{1}mediafs-file-name-5b3d4c8e-a6f0-2d4b\u{1}"

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
