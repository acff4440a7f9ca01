import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Damaged files: the readers return or throw `MediaError`, quickly; they never crash or hang.
/// Seeded, so a failing case can be replayed.
@Suite(.serialized) struct ChapterFuzzTests {
    /// The readers must answer each damaged file within this many seconds.
    static let bound = 1.0

    /// Runs `read` on `bytes` written to a temporary file; a crash fails the whole run, a
    /// non-MediaError or a slow answer fails the test.
    func survive(_ bytes: [UInt8], _ label: String, read: (String, Int64) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-fuzz-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let started = Deadline.now()
        do {
            try read(url.path, Int64(bytes.count))
        } catch is MediaError {
        } catch {
            Issue.record("\(label): \(error) is not a MediaError")
        }
        let seconds = Double(Deadline.now() - started) / 1e9
        #expect(seconds < Self.bound, "\(label) took \(seconds) s")
    }

    func ownReader(_ path: String, _ size: Int64) throws {
        let file = try FileReader(path: FilePath(path), length: size)
        switch ContainerFamily(head: try file.read(at: 0, count: 16)) {
        case .matroska: _ = try MatroskaChapterReader.read(file)
        case .quickTime: _ = try QuickTimeChapterReader.read(file)
        case .other: break
        }
    }

    func service(_ path: String, _ size: Int64) throws {
        _ = try Chapters.media.chapters(path: FilePath(path), size: size)
    }

    @Test(arguments: ["multilingual.mkv", "chapters-at-end.mkv", "two-languages.mp4", "ffmetadata.mp4"])
    func truncatedAtAHundredPoints(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: try ChapterMedia.file(name)))
        var random = SeededGenerator(seed: 4)
        // Half the cuts in the first 8 KiB, where the headers and chapters of most files are.
        for round in 0..<100 {
            let limit = round.isMultiple(of: 2) ? min(8192, bytes.count) : bytes.count
            let cut = Int.random(in: 0..<limit, using: &random)
            try survive(Array(bytes[..<cut]), "\(name) cut at \(cut)", read: ownReader)
        }
        // The service too (it also tries libavformat) on a few of them.
        for cut in [0, 3, 40, 200, 1000, bytes.count / 2, bytes.count - 1] {
            try survive(Array(bytes[..<cut]), "\(name) cut at \(cut) (service)", read: service)
        }
    }

    @Test(arguments: ["multilingual.mkv", "chapters-at-end.mkv", "two-languages.mp4", "ffmetadata.mp4"])
    func randomBytesFlipped(_ name: String) throws {
        let original = [UInt8](try Data(contentsOf: try ChapterMedia.file(name)))
        let targets = try regionsHoldingChapters(name, original)
        var random = SeededGenerator(seed: 7)
        for round in 0..<100 {
            var bytes = original
            var flipped: [Int] = []
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let region = targets[Int.random(in: 0..<targets.count, using: &random)]
                let at = Int.random(in: region, using: &random)
                bytes[at] ^= UInt8.random(in: 1...255, using: &random)
                flipped.append(at)
            }
            try survive(bytes, "\(name) round \(round) flipped \(flipped)", read: ownReader)
            if round.isMultiple(of: 10) {
                try survive(bytes, "\(name) round \(round) flipped \(flipped) (service)", read: service)
            }
        }
    }

    @Test func hostileSizesAreBounded() throws {
        // An EBML header, a Segment of unknown size, and a Chapters element claiming 2^55 bytes.
        let ebml: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x84, 0x42, 0x82, 0x81, 0x6D]
        let segment: [UInt8] = [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let chapters: [UInt8] = [0x10, 0x43, 0xA7, 0x70, 0x01, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
        try survive(ebml + segment + chapters + [UInt8](repeating: 0, count: 64), "huge Chapters", read: ownReader)
        // Chapter atoms nested 40 deep.
        var atom: [UInt8] = []
        for _ in 0..<40 { atom = [0xB6, 0x40 | UInt8(atom.count >> 8), UInt8(atom.count & 0xFF)] + atom }
        let edition = [0x45, 0xB9, 0x40 | UInt8(atom.count >> 8), UInt8(atom.count & 0xFF)] + atom
        let nested = [0x10, 0x43, 0xA7, 0x70, 0x40 | UInt8(edition.count >> 8), UInt8(edition.count & 0xFF)] + edition
        try survive(ebml + segment + nested, "deep nesting", read: ownReader)
        #expect(throws: MediaError.self) {
            try ownReader(try writeTemporary(ebml + segment + nested), Int64(ebml.count + segment.count + nested.count))
        }
        // A moov atom that claims more than the file has, and one with a 64-bit size of 2^62.
        let moov: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isom".utf8)
            + [0x7F, 0xFF, 0xFF, 0xFF] + Array("moov".utf8)
        try survive(moov, "moov past the end", read: ownReader)
        let big: [UInt8] = [0, 0, 0, 1] + Array("moov".utf8) + [0x40, 0, 0, 0, 0, 0, 0, 0]
        try survive(big, "moov of 2^62", read: ownReader)
    }

    /// The byte ranges where a file's chapter structures are: the front of a Matroska file and its
    /// Chapters element wherever it is; the moov of an MP4 and the chapter samples.
    private func regionsHoldingChapters(_ name: String, _ bytes: [UInt8]) throws -> [ClosedRange<Int>] {
        let front = 0...min(8191, bytes.count - 1)
        if name.hasSuffix(".mkv") {
            return [front, max(0, bytes.count - 6000)...(bytes.count - 1)]
        }
        return [front, max(0, bytes.count - 8000)...(bytes.count - 1)]
    }

    private func writeTemporary(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-fuzz-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url.path
    }
}
