import Foundation
@testable import MediaTree
import Testing

/// A document encoded once with a gap for the original's name gives, for any name, the bytes of
/// the document encoded with that name.
@Suite struct NamelessDocumentTests {
    private struct Document: Encodable {
        var chapters: [String]
        var file: String
    }

    private static func encode(_ document: Document) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try! encoder.encode(document))
    }

    /// Every printable ASCII character (the fast path), quotes, backslashes, slashes, control
    /// characters, line separators and characters beyond ASCII, each as `JSONEncoder` writes them.
    @Test func aNameGoesInAsTheEncoderWritesIt() throws {
        let ascii = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        let names = ascii + ["", "plain-name 01.mp4", #"a "quoted" \ back\slash.mp4"#, "a/b", "tab\there", "ctrl\u{7}bell",
                             "é ü 日本", "line\u{2028}separator", "del\u{7F}", "emoji 🎬.mkv", #"\xFF escaped"#]
        let gap = try #require(NamelessDocument { Self.encode(Document(chapters: ["Opening"], file: $0)) })
        for name in names {
            #expect(gap.filled(with: name) == Self.encode(Document(chapters: ["Opening"], file: name)), "\(name.debugDescription)")
        }
    }

    /// A document that holds the placeholder elsewhere (a title could) has no gap: it is encoded
    /// whole for each name instead of being split in the wrong place.
    @Test func aDocumentHoldingThePlaceholderTwiceHasNoGap() {
        #expect(NamelessDocument { Self.encode(Document(chapters: [$0], file: $0)) } == nil)
        #expect(NamelessDocument { _ in Self.encode(Document(chapters: [], file: "no gap")) } == nil)
    }
}
