import Foundation

/// A JSON document encoded once with a placeholder where the original's name goes, split there:
/// the document of any name is the two parts around that name's JSON string. A version's
/// `info.json` and `chapters.json` are the same for every name it has but for that string (hard
/// links: a library of copies of a few films lists thousands of each, and every listing needs
/// their sizes), so each is encoded once per version and filled in per name.
struct NamelessDocument: Sendable {
    /// The bytes before the name's JSON string, and after it.
    let head: [UInt8]
    let tail: [UInt8]

    /// Splits `document(placeholder)` at the placeholder, or nil where the placeholder is not there
    /// exactly once (a file could hold it in a title): such a document is encoded whole each time.
    /// `document` must encode its strings as `jsonString` does (`.withoutEscapingSlashes`).
    init?(_ document: (String) -> [UInt8]) {
        let bytes = document(Self.placeholder)
        let gap = Self.jsonString(Self.placeholder)
        let starts = bytes.indices.filter { bytes[$0...].starts(with: gap) }
        guard starts.count == 1, let start = starts.first else { return nil }
        head = Array(bytes[..<start])
        tail = Array(bytes[(start + gap.count)...])
    }

    /// The document with `name` in the gap.
    func filled(with name: String) -> [UInt8] { head + Self.jsonString(name) + tail }

    /// The length of every filled document less its name's JSON string.
    var lengthWithoutName: Int { head.count + tail.count }

    /// A name no file has: control characters, a fixed random tag.
    private static let placeholder = "\u{1}mediafs-file-name-5b3d4c8e-a6f0-2d4b\u{1}"

    /// `text` as a JSON string, as an encoder with `.withoutEscapingSlashes` writes it in a document:
    /// printable ASCII other than `"` and `\` goes as it is (most names: no encoder made each
    /// time), anything else through `JSONEncoder`.
    static func jsonString(_ text: String) -> [UInt8] {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != quote && $0 != backslash }) {
            return [quote] + text.utf8 + [quote]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a string cannot fail; a failure here is a programming error.
        return Array(try! encoder.encode(text))
    }
}
