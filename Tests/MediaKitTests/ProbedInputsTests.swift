import Foundation
import Glibc
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// The files a probe keeps open for the work that follows it: handed out once, only for the same
/// version of the file, for a bounded time; and what is made from them is what a fresh open makes.
@Suite struct ProbedInputsTests {
    /// A copy of the library's `relativePath` of its own (its own path, inode and times), in `folder`.
    static func copy(_ relativePath: String, into folder: TempFolder) throws -> (path: String, size: Int64) {
        let path = folder.path((relativePath as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: try TestMedia.file(relativePath).path, toPath: path)
        let size = try #require(FileIdentity(path: FilePath(path))).size
        return (path, size)
    }

    /// Every file under `folder`, by path relative to it, with its bytes.
    static func bytes(under folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        for case let relative as String in enumerator {
            var isFolder: ObjCBool = false
            let path = folder + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    @Test func aProbedFileIsHandedOutOnceForItsPath() throws {
        let folder = try TempFolder("probed-once")
        defer { folder.remove() }
        let source = try Self.copy("movie-1080p.mkv", into: folder)
        let inputs = ProbedInputs()
        _ = try Prober.probe(path: FilePath(source.path), size: source.size, timeout: 20, keepingIn: inputs)
        #expect(inputs.take(path: FilePath(source.path + ".other")) == nil)
        let taken = try #require(inputs.take(path: FilePath(source.path)))
        #expect(taken.path == FilePath(source.path))
        #expect(inputs.take(path: FilePath(source.path)) == nil)
    }

    @Test func aRemovedFileIsClosed() throws {
        let folder = try TempFolder("probed-removed")
        defer { folder.remove() }
        let source = try Self.copy("movie-1080p.mkv", into: folder)
        let media = LocalMediaService()
        _ = try media.probe(path: FilePath(source.path), size: source.size)
        #expect(media.probed.isKept(path: FilePath(source.path)))
        media.closeSessions(path: FilePath(source.path))
        #expect(!media.probed.isKept(path: FilePath(source.path)))
    }

    @Test func aFileChangedSinceItsProbeIsNotHandedOut() throws {
        let folder = try TempFolder("probed-changed")
        defer { folder.remove() }
        let source = try Self.copy("movie-1080p.mkv", into: folder)
        let inputs = ProbedInputs()
        _ = try Prober.probe(path: FilePath(source.path), size: source.size, timeout: 20, keepingIn: inputs)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, source.path, &times, 0) == 0)
        #expect(inputs.take(path: FilePath(source.path)) == nil)
    }

    @Test func keptFilesAreBoundedInNumberAndTime() throws {
        let folder = try TempFolder("probed-bounds")
        defer { folder.remove() }
        let inputs = ProbedInputs(capacity: 2, lifetime: 0.3)
        var paths: [String] = []
        for n in 0..<3 {
            let path = folder.path("\(n).mkv")
            try FileManager.default.copyItem(atPath: try TestMedia.file("movie-1080p.mkv").path, toPath: path)
            let version = try #require(FileIdentity(path: FilePath(path)))
            inputs.keep(try InputFile(path: FilePath(path), timeout: 20), version: version)
            paths.append(path)
        }
        #expect(inputs.count == 2)
        #expect(inputs.take(path: FilePath(paths[0])) == nil)
        #expect(inputs.take(path: FilePath(paths[2])) != nil)
        // The one left is closed once its time is over, even if nobody asks.
        #expect(Wait.until(5) { inputs.count == 0 })
    }

    /// The pass that takes the probe's file makes the same bytes as one that opens the file itself.
    @Test func tracksFromAProbedFileAreTheSameBytes() throws {
        let folder = try TempFolder("probed-tracks")
        defer { folder.remove() }
        let source = try Self.copy("movie-1080p.mkv", into: folder)
        let media = LocalMediaService()
        let info = try media.probe(path: FilePath(source.path), size: source.size)
        #expect(media.probed.isKept(path: FilePath(source.path)))
        let taking = try folder.makeFolder("taking")
        let first = try media.extractAllTracks(path: source.path, size: source.size, info: info, into: taking)
        #expect(!media.probed.isKept(path: FilePath(source.path)), "the pass took the probe's file")
        let opening = try folder.makeFolder("opening")
        let second = try media.extractAllTracks(path: source.path, size: source.size, info: info, into: opening)
        #expect(first.allSatisfy { $0.track != nil } && second.allSatisfy { $0.track != nil })
        let made = try Self.bytes(under: taking)
        #expect(made.count == first.count)
        let again = try Self.bytes(under: opening)
        #expect(made == again)
    }

    /// A first thumbnail that takes the probe's file is the same PNG as one from a fresh open.
    @Test func aThumbnailFromAProbedFileIsTheSamePNG() throws {
        let folder = try TempFolder("probed-thumbnail")
        defer { folder.remove() }
        let source = try Self.copy("feature-1080p.mp4", into: folder)
        let version = try #require(FileIdentity(path: FilePath(source.path)))
        let file = MediaFile(path: FilePath(source.path), size: source.size, modificationNanoseconds: version.modificationNanoseconds)
        let media = LocalMediaService()
        let info = try media.probe(path: FilePath(source.path), size: source.size)
        let video = try #require(info.streams.first { $0.isMovingVideo })
        let size = try #require(ThumbnailGeometry.outputSize(of: video, box: .width(320)))
        let request = ThumbnailRequest(streamIndex: video.index, time: 7.3, pick: .exact, width: size.width, height: size.height)
        #expect(media.probed.isKept(path: FilePath(source.path)))
        let taking = try media.thumbnail(of: file, request: request)
        #expect(!media.probed.isKept(path: FilePath(source.path)), "the decode session took the probe's file")
        let opening = try LocalMediaService().thumbnail(of: file, request: request)
        #expect(taking.bytes == opening.bytes)
        #expect(taking.frameTime == opening.frameTime)
    }
}
