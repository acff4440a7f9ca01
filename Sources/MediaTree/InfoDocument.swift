import Foundation
import MediaKit

/// `info.json`: the probe as one tidy JSON document (see Docs/LAYOUT.md).
enum InfoDocument {
    /// The document's bytes. The same `MediaInfo` always gives the same bytes (keys are sorted).
    static func render(_ info: MediaInfo, fileName: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let document = Document(file: fileName, container: info.container, streams: info.streams,
                                chapters: info.chapters, tags: info.tags)
        // Encoding plain values cannot fail; a failure here is a programming error.
        let data = try! encoder.encode(document)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    private struct Document: Encodable {
        var file: String
        var container: MediaInfo.Container
        var streams: [MediaInfo.Stream]
        var chapters: [MediaInfo.Chapter]
        var tags: [String: String]
    }
}
