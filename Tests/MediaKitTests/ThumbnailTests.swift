import Dispatch
import Foundation
@testable import MediaKit
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// Thumbnails of the test library, checked by the frame index every frame carries in its strip
/// (see scripts/make-media.sh). feature-1080p.mp4 (small set): 640×360, 25 fps, 30 s, a keyframe
/// every 50 frames (2 s), 3 B-frames.
@Suite struct ThumbnailTests {
    static let fps = 25.0

    /// Each time asked of a new service, so nothing is kept from one to the next.
    func alone(_ video: LibraryVideo, _ time: Double, _ pick: FramePick = .exact) throws -> (thumbnail: Thumbnail, png: StoredPNG, index: Int) {
        try video.thumbnail(LocalMediaService(), at: time, pick)
    }

    @Test(arguments: [
        (0.0, 0), (1.0, 25), (1.02, 25), (1.039, 25),  // on a boundary, between, 1 ms before the next
        (1.999, 49), (2.0, 50), (2.001, 50),           // 1 ms before a keyframe, on it, after it
        (7.3, 182), (12.52, 313), (-1.0, 0),           // a time before the first frame shows the first
        (29.96, 749), (29.99, 749), (30.0, 749),       // the last frame, and times past it within the duration
    ])
    func exactFrames(time: Double, expected: Int) throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let (thumbnail, png, index) = try alone(video, time)
        #expect(index == expected)
        #expect(abs(thumbnail.frameTime - Double(expected) / Self.fps) < 1e-6)
        #expect(thumbnail.isKeyframe == (expected % 50 == 0))
        #expect(png.width == 320 && png.height == 180)
        #expect(thumbnail.bytes.count == PNGEncoder.encodedSize(width: 320, height: 180))
    }

    @Test func aTimePastTheEndHasNoFrame() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        for time in [30.5, 1e12, .infinity, .nan] {
            #expect(throws: MediaError.self) { _ = try alone(video, time) }
        }
        #expect(try alone(video, -1e12).index == 0)
    }

    /// Frames asked for in time order continue one decode (one session, few seeks) and are the
    /// frames, byte for byte, that each time gives when asked alone.
    @Test func framesInTimeOrderDecodeForward() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let service = LocalMediaService()
        let times = stride(from: 0.0, through: 6.0, by: 0.1).map { $0 }
        var answers: [Thumbnail] = []
        for time in times {
            let (thumbnail, _, index) = try video.thumbnail(service, at: time)
            #expect(index == Int((time * Self.fps).rounded(.down) + 1e-9), "at \(time)")
            answers.append(thumbnail)
        }
        let cost = service.thumbnails.statistics
        #expect(cost.sessionsOpened == 1)
        #expect(cost.seeks == 1)
        // 150 frames to 6 s, and the one after to know it is the last at or before 6 s.
        #expect(cost.framesDecoded <= 152)
        for i in [0, 1, 7, 25, 40, 59, 60] {
            #expect(try alone(video, times[i]).thumbnail == answers[i], "at \(times[i])")
        }
    }

    /// Far apart, later times seek (a keyframe lies between); an earlier time seeks back.
    @Test func distantAndEarlierTimesSeek() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let service = LocalMediaService()
        for (time, expected) in [(1.0, 25), (9.5, 237), (20.04, 501), (3.0, 75), (3.5, 87)] {
            #expect(try video.thumbnail(service, at: time).index == expected, "at \(time)")
        }
        let cost = service.thumbnails.statistics
        #expect(cost.sessionsOpened == 1)
        #expect(cost.seeks == 4)  // all but 3.5, which continues from 3.0
    }

    @Test(arguments: [(0.0, 0), (0.9, 0), (1.1, 50), (2.9, 50), (3.1, 100), (25.5, 650), (29.5, 700), (40.0, 700)])
    func nearestKeyframes(time: Double, expected: Int) throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let (thumbnail, _, index) = try alone(video, time, .nearestKeyframe)
        #expect(index == expected)
        #expect(thumbnail.isKeyframe)
        #expect(abs(thumbnail.frameTime - Double(expected) / Self.fps) < 1e-6)
    }

    /// A format without an index (MPEG program stream: keyframes every 12 frames) and Matroska
    /// (its cues are read at the first seek).
    @Test func nearestKeyframesWithoutAndWithALazyIndex() throws {
        let pal = try LibraryVideo("clips/anamorphic-pal.mpg")
        for (time, expected) in [(0.0, 0), (0.5, 12), (1.0, 24), (1.5, 36), (1.99, 48)] {
            let (thumbnail, _, index) = try alone(pal, time, .nearestKeyframe)
            #expect(index == expected && thumbnail.isKeyframe, "at \(time)")
        }
        let movie = try LibraryVideo("movie-1080p.mkv")  // 24000/1001 fps, keyframes every 48 frames
        for (time, expected) in [(1.0, 0), (1.5, 48), (25.0, 576), (29.9, 672)] {
            let (thumbnail, _, index) = try alone(movie, time, .nearestKeyframe)
            #expect(index == expected && thumbnail.isKeyframe, "at \(time)")
        }
    }

    @Test func matroskaAtNTSCRates() throws {
        let movie = try LibraryVideo("movie-1080p.mkv")
        let frame = 1001.0 / 24000
        for (time, expected) in [(100 * frame, 100), (101 * frame - 0.001, 100), (10.0, 239), (29.9, 716)] {
            #expect(try alone(movie, time).index == expected, "at \(time)")
        }
    }

    /// A display matrix turning 90° (counter-clockwise, as ffprobe reports +90 here): the 640×360
    /// picture is shown as portrait, turned the way ffmpeg turns it.
    @Test func rotatedVideoIsUpright() throws {
        let phone = try LibraryVideo("clips/portrait-rotated.mp4")
        #expect(ThumbnailGeometry.outputSize(of: phone.video, box: .width(320)) == .init(width: 320, height: 569))
        let (thumbnail, png, index) = try alone(phone, 1.5)
        #expect(png.width == 320 && png.height == 569)
        #expect(index == 45)
        #expect(ThumbnailGeometry.clockwiseQuarterTurns(rotation: phone.video.rotation) == 3)
        #expect(thumbnail.bytes.count == PNGEncoder.encodedSize(width: 320, height: 569))
        let reference = try FFmpegFrames.frame(phone.file.path.string, at: 1.5, width: 320, height: 569)
        #expect(Self.meanDifference(png.rgb, reference) < 4)
    }

    /// SAR 64:45: 720×576 shown at 16:9. An MPEG program stream starting at 0.54 s: time 0 is its
    /// first frame.
    @Test func anamorphicVideoIsShownWide() throws {
        let pal = try LibraryVideo("clips/anamorphic-pal.mpg")
        #expect(ThumbnailGeometry.displaySize(of: pal.video) == .init(width: 1024, height: 576))
        for (time, expected) in [(0.0, 0), (1.0, 25), (1.99, 49)] {
            let (thumbnail, png, index) = try alone(pal, time)
            #expect(png.width == 320 && png.height == 180)
            #expect(index == expected, "at \(time)")
            #expect(abs(thumbnail.frameTime - Double(expected) / Self.fps) < 1e-6)
        }
    }

    /// 10-bit HEVC: the colours are those ffmpeg makes (same matrix and range), and the grey of the
    /// bars stays grey.
    @Test func tenBitVideoKeepsItsColours() throws {
        let clip = try LibraryVideo("clips/clip-hevc10.mkv")
        let (_, png, index) = try alone(clip, 1.0)
        #expect(index == 25)
        let reference = try FFmpegFrames.frame(clip.file.path.string, at: 1.0, width: 320, height: 180)
        #expect(Self.meanDifference(png.rgb, reference) < 3)
        // smptehdbars: the first bar (left 1/8 of the top 7/12) is 40% grey.
        let grey = png.pixel(20, 40)
        #expect(max(grey.r, grey.g, grey.b) - min(grey.r, grey.g, grey.b) <= 6)
        #expect((95...115).contains(grey.g))
    }

    /// A full-size frame of a 4K clip, and the VP9 one.
    @Test func largeAndVP9Frames() throws {
        let uhd = try LibraryVideo("clips/uhd-4k.mp4")  // 10 fps in the small set
        let (thumbnail, png, index) = try uhd.thumbnail(LocalMediaService(), at: 0.5, box: .full)
        #expect(png.width == 3840 && png.height == 2160 && index == 5)
        #expect(thumbnail.bytes.count == PNGEncoder.encodedSize(width: 3840, height: 2160))
        let vp9 = try LibraryVideo("clips/clip-vp9.webm")  // 30 fps
        #expect(try alone(vp9, 2.5).index == 75)
    }

    /// The first 45% of the feature: frames before the cut are there; after it, an error within
    /// the bound, not a hang and not a wrong frame.
    @Test func truncatedFileFailsAfterTheCut() throws {
        let cut = try LibraryVideo("broken/feature-truncated.mp4")
        #expect(try alone(cut, 5.0).index == 125)
        #expect(try alone(cut, 10.0).index == 250)
        for time in [13.5, 14.0, 20.0, 29.0] {
            let started = Date()
            #expect {
                _ = try alone(cut, time)
            } throws: { error in
                guard case MediaError.noFrame(_, let reason) = error else { return false }
                return reason.contains("truncated")
            }
            #expect(Date().timeIntervalSince(started) < 5)
        }
        // The nearest keyframe is no answer either past the cut; before it, it is.
        #expect(throws: MediaError.self) { _ = try alone(cut, 20.0, .nearestKeyframe) }
        #expect(try alone(cut, 12.5, .nearestKeyframe).index == 300)
    }

    /// Matroska gives no duration per stream: a cut file is told from a video track that merely
    /// ends before its audio by whether any stream reaches the container's end.
    @Test func matroskaCutShortOrEndingBeforeItsAudio() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-mkv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try LibraryVideo("movie-1080p.mkv")
        let whole = try Data(contentsOf: URL(fileURLWithPath: movie.file.path.string))
        let cutURL = folder.appendingPathComponent("cut.mkv")
        try whole.prefix(whole.count * 45 / 100).write(to: cutURL)
        let shortURL = folder.appendingPathComponent("short-video.mkv")
        _ = try FFmpegFrames.run(["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=2",
                                  "-f", "lavfi", "-i", "sine=d=4", "-c:v", "libx264", "-c:a", "aac", shortURL.path])
        let service = LocalMediaService()
        func thumbnail(_ url: URL, _ time: Double, _ pick: FramePick = .exact) throws -> Thumbnail {
            let file = MediaFile(path: FilePath(url.path), size: Int64(try Data(contentsOf: url).count), modificationNanoseconds: 0)
            let request = ThumbnailRequest(streamIndex: 0, time: time, pick: pick, width: 320, height: 180)
            return try service.thumbnail(of: file, request: request)
        }
        #expect(try FrameIndexStrip.read(StoredPNG(thumbnail(cutURL, 5.0).bytes)) == 119)
        for pick in [FramePick.exact, .nearestKeyframe] {
            #expect {
                _ = try thumbnail(cutURL, 20.0, pick)
            } throws: { error in
                guard case MediaError.noFrame(_, let reason) = error else { return false }
                return reason.contains("truncated")
            }
        }
        // The video's last frame is at 1.96 s; the audio goes on to 4 s.
        #expect(try thumbnail(shortURL, 3.5).frameTime == 1.96)
        #expect(throws: MediaError.self) { _ = try thumbnail(shortURL, 4.5) }
    }

    @Test func boundsTurnIntoErrors() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let tight = LocalMediaService(thumbnailLimits: ThumbnailLimits(maxDecodedFrames: 10))
        #expect {
            _ = try video.thumbnail(tight, at: 1.5)
        } throws: { error in
            guard case MediaError.damaged = error else { return false }
            return true
        }
        let hurried = LocalMediaService(thumbnailLimits: ThumbnailLimits(timeout: 0))
        #expect(throws: MediaError.timedOut(seconds: 0)) { _ = try video.thumbnail(hurried, at: 1.5) }
    }

    @Test func onlyMovingVideoStreamsHaveThumbnails() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let audio = try #require(video.info.streams.first { $0.kind == .audio })
        let service = LocalMediaService()
        for index in [audio.index, 99, -1] {
            let request = ThumbnailRequest(streamIndex: index, time: 1, pick: .exact, width: 320, height: 180)
            #expect(throws: MediaError.noVideoStream(index: index)) { _ = try service.thumbnail(of: video.file, request: request) }
        }
    }

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
            #expect(index == Int(times[i % times.count] * Self.fps + 1e-9))
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

    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        var total = 0
        for i in a.indices { total += abs(Int(a[i]) - Int(b[i])) }
        return Double(total) / Double(a.count)
    }
}
