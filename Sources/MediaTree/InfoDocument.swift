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

        /// The document's bytes. The same `MediaInfo` and name always give the same bytes (keys are
        /// sorted).
        func document(fileName: String) -> [UInt8] {
            head + InfoDocument.encode(fileName) + tail
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
        return Template(head: Array(bytes[..<start]), tail: Array(bytes[(start + gap.count)...]))
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
        var container: MediaInfo.Container
        var streams: [MediaInfo.Stream]
        var chapters: [MediaInfo.Chapter]
        var tags: [String: String]
    }
}
