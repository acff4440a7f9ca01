import Foundation
@testable import MediaKit
import TestSupport

/// Reading chapters of the test files through the service, as the tree will.
enum Chapters {
    static let media = LocalMediaService(probeTimeout: 20)

    static func size(_ url: URL) throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! NSNumber).int64Value
    }

    /// The chapters of a file of the chapter media (`ChapterMedia`).
    static func of(_ name: String) throws -> ChapterList {
        let url = try ChapterMedia.file(name)
        return try media.chapters(path: url.path, size: try size(url))
    }

    /// The chapters of a file of the fixture library (`TestMedia`).
    static func ofFixture(_ relativePath: String) throws -> ChapterList {
        let url = try TestMedia.file(relativePath)
        return try media.chapters(path: url.path, size: try size(url))
    }

    /// The default edition's chapters of a chapter-media file.
    static func defaultChapters(_ name: String) throws -> [ChapterList.Chapter] {
        try of(name).defaultEdition?.chapters ?? []
    }
}

extension ChapterList.Chapter {
    /// The titles' texts in file order.
    var texts: [String] { titles.map(\.text) }

    /// The text of the title whose languages include `code`, as stored.
    func title(in code: String) -> String? { titles.first { $0.languages.contains(code) }?.text }
}

/// A small deterministic random generator (SplitMix64), so that a failing fuzz case can be replayed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
