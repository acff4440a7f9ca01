import Foundation
import FuseBridge
import Logging
import MediaKit
import MediaTree
import Synchronization
import SystemPackage
import TestSupport

/// A media service that counts the probes, thumbnails, chapter reads, passes and picture
/// conversions it makes (by path as text); the rest it forwards.
final class CountingMediaService: ForwardingMediaService {
    let base: any MediaService = LocalMediaService(probeTimeout: 20)
    private let counts = Mutex<[String: Int]>([:])

    func probe(path: FilePath, size: Int64) throws -> MediaInfo {
        counts.withLock { $0[path.string, default: 0] += 1 }
        return try base.probe(path: path, size: size)
    }

    func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
        counts.withLock { $0["thumbnail " + file.path.string, default: 0] += 1 }
        return try base.thumbnail(of: file, request: request)
    }

    func chapters(path: FilePath, size: Int64) throws -> ChapterList {
        counts.withLock { $0["chapters " + path.string, default: 0] += 1 }
        return try base.chapters(path: path, size: size)
    }

    func extractTracks(path: FilePath, size: Int64, jobs: [TrackJob], timeout: Double, reading: AnalysisRequest) throws -> [TrackResult] {
        counts.withLock { $0["tracks " + path.string, default: 0] += 1 }
        return try base.extractTracks(path: path, size: size, jobs: jobs, timeout: timeout, reading: reading)
    }

    func stillImage(bytes: [UInt8], codec: String, width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        counts.withLock { $0["still image", default: 0] += 1 }
        return try base.stillImage(bytes: bytes, codec: codec, width: width, height: height, format: format)
    }

    func probes(of path: String) -> Int { counts.withLock { $0[path] ?? 0 } }
    func thumbnails(of path: String) -> Int { counts.withLock { $0["thumbnail " + path] ?? 0 } }
    /// Chapter lists read, of every file.
    var chapterReads: Int { counts.withLock { $0.filter { $0.key.hasPrefix("chapters ") }.values.reduce(0, +) } }
    /// Pictures decoded (JPEG chapter images and covers converted to PNG).
    var stillImages: Int { counts.withLock { $0["still image"] ?? 0 } }
    /// Passes extracting tracks from the file at `path`.
    func trackPasses(of path: String) -> Int { counts.withLock { $0["tracks " + path] ?? 0 } }
    /// Probes made, of every file.
    var total: Int {
        counts.withLock {
            $0.filter { !$0.key.hasPrefix("thumbnail ") && !$0.key.hasPrefix("chapters ") && !$0.key.hasPrefix("tracks ")
                && $0.key != "still image" }
                .values.reduce(0, +)
        }
    }
}

/// A private source folder for one test: a few files of the test library, copied, so the test may
/// change them; removed when the fixture goes.
final class TreeFixture: Sendable {
    let source: URL
    let media = CountingMediaService()
    let tree: MediaTree
    /// The tree by number, as the kernel reaches it.
    let numbered: NumberedTree

    /// Whether this fixture made `source` (and removes it).
    private let ownsSource: Bool

    /// - Parameters:
    ///   - files: files of the test library (`TestMedia`) to copy, by relative path.
    ///   - chapterFiles: files of the chapter media (`ChapterMedia`) to copy into `chapters/`.
    init(files: [String] = ["feature-1080p.mp4", "notes.txt", "broken/empty.mp4", "clips/clip-vp9.webm", "audio/song.mp3"],
         chapterFiles: [String] = [], settings: TreeSettings = TreeSettings()) throws {
        source = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-tree-\(UUID().uuidString)")
        let copies = try files.map { ($0, try TestMedia.file($0)) }
            + chapterFiles.map { ("chapters/" + $0, try ChapterMedia.file($0)) }
        for (relative, origin) in copies {
            let target = source.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: origin, to: target)
        }
        ownsSource = true
        tree = MediaTree(sourceRoot: source.path, media: media, logger: Logger(label: "test"), settings: settings)
        numbered = NumberedTree(tree: tree)
    }

    /// A second tree over another fixture's source (which stays that fixture's to remove).
    init(source: URL, settings: TreeSettings) {
        self.source = source
        ownsSource = false
        tree = MediaTree(sourceRoot: source.path, media: media, logger: Logger(label: "test"), settings: settings)
        numbered = NumberedTree(tree: tree)
    }

    deinit {
        tree.close()
        if ownsSource { try? FileManager.default.removeItem(at: source) }
    }

    func path(_ relative: String) -> String { source.appendingPathComponent(relative).path }

    /// The attributes at a slash-separated path from the root, looked up name by name.
    func lookup(_ path: String) throws -> Attributes {
        var attributes = try numbered.attributes(of: NodeKey.rootNumber)
        for name in path.split(separator: "/") {
            attributes = try numbered.lookup(parent: attributes.inode, name: String(name))
        }
        return attributes
    }

    /// The whole content of the file at `path`.
    func read(_ path: String) throws -> [UInt8] {
        let content = try open(try lookup(path).inode)
        var bytes: [UInt8] = []
        while true {
            let chunk = try content.read(offset: Int64(bytes.count), count: 65_536)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }

    /// `open` by number, waited for (a test may wait; FUSE threads never do).
    func open(_ inode: UInt64) throws -> any FileContent {
        try numbered.open(inode)
    }

    /// Sets the modification time of a source file `seconds` into the future (a changed version).
    func touch(_ relative: String, seconds: Double = 5) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: seconds)],
                                              ofItemAtPath: path(relative))
    }
}

// The waiting wrappers of the operations by number (`NumberedTree.wait`, `lookup(parent:name:)`, …) are in
// TestSupport (DirectTreeClient.swift), shared with the scenario suites.

extension [DirectoryEntry] {
    /// The entries' names as text (the test media's names are UTF-8).
    var names: [String] { map { $0.name.escaped } }
}
