import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Sources whose reads start failing part way, as a failing disk's do (`SourceInput.failingReads`),
/// and files cut short: every frame and sheet made is the one the whole file gives, or an error.
/// Never a neighbouring frame taken for the one asked, never a tile of another time.
@Suite(.serialized) struct ReadFaultTests {
    /// Every 0.4 s of the 8 s clips, both picks.
    static let times = stride(from: 0.0, through: 7.9, by: 0.4).map { $0 }
    static let picks: [FramePick] = [.exact, .nearestKeyframe]

    /// The clip of `ContainerFixture`, its MP4 rewritten with its index at the front (as most MP4s
    /// people keep are): an index at the end would make every read past a failing byte fail to open.
    static func clip(_ container: String) throws -> LibraryVideo {
        guard container == "faststart.mp4" else { return try ContainerFixture.video(container) }
        let path = try ContainerFixture.path("mp4").replacingOccurrences(of: "clip.mp4", with: "clip-faststart.mp4")
        if !FileManager.default.fileExists(atPath: path) {
            let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", try ContainerFixture.path("mp4"),
                                          "-c", "copy", "-movflags", "+faststart", path + ".part.mp4"], timeout: 120)
            guard result.succeeded else { throw StoredPNG.Malformed(description: "ffmpeg: \(result)") }
            try FileManager.default.moveItem(atPath: path + ".part.mp4", toPath: path)
        }
        return try LibraryVideo(absolutePath: path)
    }

    /// What each request gives: the frame's index (its strip) and time, or nil for an error.
    struct Answer: Equatable {
        var index: Int
        var time: Double
    }

    static func answers(_ video: LibraryVideo, _ service: LocalMediaService) -> [FramePick: [Answer?]] {
        var answers: [FramePick: [Answer?]] = [:]
        for pick in picks {
            answers[pick] = times.map { time in
                (try? video.thumbnail(service, at: time, pick)).map { Answer(index: $0.index, time: $0.thumbnail.frameTime) }
            }
        }
        return answers
    }

    /// Places reads start failing: spread over the file, the header's first kilobytes spared.
    static func cuts(of video: LibraryVideo) -> [Int64] {
        (1...4).map { 4096 + (video.file.size - 4096) * Int64($0) / 5 }
    }

    /// Runs `body` while reads of `path` fail from `offset` on (for sessions opened meanwhile).
    static func failing<T>(_ path: FilePath, from offset: Int64, _ body: () throws -> T) rethrows -> T {
        SourceInput.failingReads.withLock { $0[path] = offset }
        defer { _ = SourceInput.failingReads.withLock { $0.removeValue(forKey: path) } }
        return try body()
    }

    /// In the containers whose seeking differs most: an index of every sample (MP4), cues at the
    /// end (Matroska), a search over the file by packet times (MPEG transport and program streams).
    @Test(arguments: ["faststart.mp4", "mkv", "ts", "mpg"])
    func framesAreExactOrAnErrorPastAFailingRead(_ container: String) throws {
        let video = try Self.clip(container)
        let whole = Self.answers(video, LocalMediaService())
        #expect(whole.values.allSatisfy { !$0.contains(nil) }, "the whole file gives every frame")
        var (served, failed) = (0, 0)
        for cut in Self.cuts(of: video) {
            let got = Self.failing(video.file.path, from: cut) { Self.answers(video, LocalMediaService()) }
            for pick in Self.picks {
                for (i, answer) in got[pick]!.enumerated() {
                    guard let answer else {
                        failed += 1
                        continue
                    }
                    served += 1
                    #expect(answer == whole[pick]![i], "\(container), reads failing from byte \(cut): \(pick) at \(Self.times[i]) s")
                }
            }
        }
        // Both ways: frames before the failing byte are served, frames past it fail.
        #expect(served > 0 && failed > 0, "\(container): \(served) served, \(failed) failed")
    }

    /// A sheet made past a failing read fails whole (a failure that may pass, never kept): what
    /// is served is the sheet of the whole file, byte for byte.
    @Test(arguments: ["faststart.mp4", "mkv", "mpg"])
    func sheetsAreWholeOrAnErrorPastAFailingRead(_ container: String) throws {
        let video = try Self.clip(container)
        let storyboard = StoryboardRequest(streamIndex: video.video.index, duration: 8, interval: 1,
                                           tileWidth: 80, tileHeight: 45)
        let contact = try #require(ContactSheetRequest(info: video.info, fileName: "clip", columns: 3, rows: 2, width: 400))
        func sheets(_ service: LocalMediaService) -> [Result<[UInt8], MediaError>] {
            [Result { try service.storyboardSheet(of: video.file, request: storyboard, sheet: 0) }.mapError { $0 as! MediaError },
             Result { try service.contactSheet(of: video.file, request: contact, format: .jpeg) }.mapError { $0 as! MediaError }]
        }
        let whole = sheets(LocalMediaService()).map { try? $0.get() }
        #expect(!whole.contains(nil))
        var failed = 0
        for cut in Self.cuts(of: video) {
            for (i, result) in Self.failing(video.file.path, from: cut, { sheets(LocalMediaService()) }).enumerated() {
                switch result {
                case .success(let bytes):
                    #expect(bytes == whole[i], "\(container), reads failing from byte \(cut): sheet \(i) differs")
                case .failure(let error):
                    failed += 1
                    #expect(error.mayPass, "\(container), reads failing from byte \(cut): \(error)")
                }
            }
        }
        #expect(failed > 0)
    }

    /// A file cut short (its index, where it has one, promising more): every frame is the whole
    /// file's or an error; the frames before the cut are served.
    @Test(arguments: ["faststart.mp4", "mkv", "ts"])
    func framesOfAFileCutShortAreExactOrAnError(_ container: String) throws {
        let video = try Self.clip(container)
        let whole = Self.answers(video, LocalMediaService())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: video.file.path.string))
        let folder = try TempFolder("read-faults-cut")
        defer { folder.remove() }
        var served = 0
        for cut in Self.cuts(of: video) {
            let path = folder.path("cut-\(cut).\(container)")
            try bytes.prefix(Int(cut)).write(to: URL(fileURLWithPath: path))
            guard let short = try? LibraryVideo(absolutePath: path) else { continue }
            // What the tree asks: times within the duration the probe of the cut file gives
            // (`Thumbnails.duration`, on the container's clock).
            let start = short.info.container.startTime ?? 0
            let duration = short.info.container.duration.map { start + $0 - (short.video.startTime ?? start) } ?? 0
            let got = Self.answers(short, LocalMediaService())
            // The last frame answers the end itself (`at-100%`), where the whole file has the next;
            // where the end is only estimated from the packets' times (an MPEG transport stream
            // has no index), it answers up to the tolerance `DecodeSession.truncation()` gives a
            // declared end (1 s).
            let end = container == "ts" ? duration - 1 : duration - 1 / ContainerFixture.fps
            // Near the cut, the keyframe nearest a time in the file as it is may be an earlier one
            // than the whole file's (the later one is not in it): keyframes are compared where
            // the cut file still has frames a keyframe interval (1.2 s) on.
            let lastFrame = Array(zip(Self.times, got[.exact]!)).last { $0.1 != nil }?.0 ?? 0
            for pick in Self.picks {
                let until = pick == .exact ? end : lastFrame - 1.2
                for (i, answer) in got[pick]!.enumerated() where answer != nil && Self.times[i] <= until {
                    served += 1
                    #expect(answer == whole[pick]![i], "\(container) cut at byte \(cut): \(pick) at \(Self.times[i]) s")
                }
            }
        }
        #expect(served > 0)
    }
}
