import Dispatch
import Foundation
@testable import MediaKit
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// The decode sessions behind thumbnails: shared by concurrent requests, closed when idle past
/// their lifetime or when their file changes (`DecodeSessionPool`).
@Suite struct ThumbnailSessionTests {
    /// Many threads at once, on one service and file: each gets its own session and its frame.
    @Test func concurrentRequests() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let service = LocalMediaService(decodeSessions: 2)
        let times = (0..<12).map { Double($0) * 2.3 }
        let results = Mutex<[Int: Int]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: times.count * 2) { i in
            let time = times[i % times.count]
            do {
                let index = try video.thumbnail(service, at: time).index
                results.withLock { $0[i] = index }
            } catch {
                failures.withLock { $0.append("\(time): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for (i, index) in results.withLock({ $0 }) {
            #expect(index == Int(times[i % times.count] * ThumbnailTests.fps + 1e-9))
        }
        #expect(service.thumbnails.pool.count <= 2)
    }

    /// An idle session is closed once its lifetime is up, counted from its last use, and not before.
    /// Time is what this test is about: the only pause is for half the lifetime to pass between two
    /// uses, and what is asserted holds however slow the machine (a session seen kept before its
    /// lifetime is up; a close seen no earlier than a lifetime after the last use began).
    @Test func idleSessionsAreClosedAfterTheirLifetime() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let lifetime = 1.0
        let service = LocalMediaService(decodeSessions: 2, decodeSessionLifetime: lifetime)
        #expect(try video.thumbnail(service, at: 1.0).index == 25)
        let firstUse = Date()
        let kept = service.thumbnails.pool.count
        if Date() < firstUse.addingTimeInterval(lifetime) { #expect(kept == 1, "closed before its lifetime") }
        // Used again (continuing forward) once half its lifetime is gone, it gets a new one from then.
        Wait.until(5) { Date() >= firstUse.addingTimeInterval(lifetime / 2) }
        let secondUse = Date()
        #expect(try video.thumbnail(service, at: 1.5).index == 37)
        #expect(service.thumbnails.statistics.sessionsOpened == 1)
        #expect(Wait.until(10) { service.thumbnails.pool.count == 0 }, "still kept after its lifetime")
        let closed = Date()
        #expect(closed >= secondUse.addingTimeInterval(lifetime),
                "closed \(closed.timeIntervalSince(secondUse)) s after its last use, a lifetime of \(lifetime) s")
    }

    /// A file replaced at the same path (another size or time) is not served from the old session.
    @Test func aChangedFileClosesItsSessions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-thumb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("clip.mp4").path
        let feature = try LibraryVideo("feature-1080p.mp4")
        let phone = try LibraryVideo("clips/portrait-rotated.mp4")
        let service = LocalMediaService()
        try FileManager.default.copyItem(atPath: feature.file.path.string, toPath: path)
        let first = MediaFile(path: FilePath(path), size: feature.file.size, modificationNanoseconds: 1)
        let request = try feature.request(1.0)
        #expect(try FrameIndexStrip.read(StoredPNG(service.thumbnail(of: first, request: request).bytes)) == 25)
        #expect(service.thumbnails.pool.count == 1)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: phone.file.path.string, toPath: path)
        let second = MediaFile(path: FilePath(path), size: phone.file.size, modificationNanoseconds: 2)
        let turned = try phone.request(1.5)
        let png = try StoredPNG(service.thumbnail(of: second, request: turned).bytes)
        let turns = ThumbnailGeometry.clockwiseQuarterTurns(rotation: phone.video.rotation)
        #expect(FrameIndexStrip.read(png, clockwiseQuarterTurns: turns) == 45)
        #expect(service.thumbnails.pool.count == 1)
        #expect(service.thumbnails.statistics.sessionsOpened == 2)
    }
}
