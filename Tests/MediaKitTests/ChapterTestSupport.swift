import Foundation
@testable import MediaKit
import SystemPackage
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
        return try media.chapters(path: FilePath(url.path), size: try size(url))
    }

    /// The chapters of a file of the fixture library (`TestMedia`).
    static func ofFixture(_ relativePath: String) throws -> ChapterList {
        let url = try TestMedia.file(relativePath)
        return try media.chapters(path: FilePath(url.path), size: try size(url))
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
