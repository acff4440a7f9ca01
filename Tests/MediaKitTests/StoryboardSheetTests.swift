import Dispatch
import SystemPackage
import Foundation
@testable import MediaKit
import Synchronization
import Testing
import TestSupport

/// Storyboard sheets made from media made at test time: each tile shows the keyframe nearest
/// the start of its interval, as ffprobe lists the keyframes (`-show_packets`, flag K), read
/// from the frame-index strip in the tile's region; every sheet exactly its predicted length.
@Suite struct StoryboardSheetTests {
    /// The tiles of every sheet of `request` for `video`, in PNG, with the frame index each shows.
    static func tileIndices(_ video: LibraryVideo, _ request: StoryboardRequest,
                            service: LocalMediaService = LocalMediaService()) throws -> [Int] {
        let layout = try #require(StoryboardLayout(request))
        var indices: [Int] = []
        for sheet in 0..<layout.sheetCount {
            let bytes = try service.storyboardSheet(of: video.file, request: request, sheet: sheet)
            #expect(bytes.count == layout.encodedSize(sheet: sheet))
            let picture: StoredPNG
            if request.format == .png {
                picture = try StoredPNG(bytes)
            } else {
                let size = layout.sheetSize(sheet)
                picture = StoredPNG(width: size.width, height: size.height, rgb: try JPEGEncoderTests.ffmpegDecode(bytes))
            }
            #expect(picture.width == layout.sheetSize(sheet).width && picture.height == layout.sheetSize(sheet).height)
            for i in layout.tiles(inSheet: sheet) {
                let t = layout.tile(i)
                indices.append(FrameIndexStrip.read(picture.region(x: t.x, y: t.y, width: t.width, height: t.height)))
            }
        }
        return indices
    }

    /// The frame indices the tiles should show: for each tile's time, the keyframe ffprobe lists
    /// nearest it (the earlier of two as near), as a frame number at `fps`; 0 for a keyframe in
    /// `blank` (all black, its strip too).
    static func expectedIndices(_ video: LibraryVideo, _ layout: StoryboardLayout, fps: Double,
                                blank: ClosedRange<Double>? = nil) throws -> [Int] {
        let keyframes = try StoryboardFixture.ffprobeKeyframes(video.file.path.string)
        return (0..<layout.tileCount).map { i in
            let keyframe = StoryboardFixture.nearest(keyframes, to: layout.tile(i).time)
            return blank?.contains(keyframe) == true ? 0 : Int((keyframe * fps).rounded())
        }
    }

    @Test func tilesShowTheNearestKeyframes() throws {
        let video = try StoryboardFixture.video()
        let request = StoryboardRequest(streamIndex: video.video.index, duration: StoryboardFixture.duration,
                                        interval: 10, columns: 4, rows: 2, tileWidth: 160, tileHeight: 90, format: .png)
        let layout = try #require(StoryboardLayout(request))
        let expected = try Self.expectedIndices(video, layout, fps: StoryboardFixture.fps)
        // What the clip was made with, so the check above is no tautology: 10 s → 12.5 s, a tie at
        // 60 s between 58 s and 62 s goes to 58 s, 80 s → 77 s.
        #expect(expected == [0, 125, 210, 299, 410, 520, 580, 700, 770, 880])
        #expect(try Self.tileIndices(video, request) == expected)
    }

    /// JPEG sheets (the default): exact lengths, and the strips still readable in every tile.
    /// Intervals shorter than the keyframes' gaps show a keyframe in several tiles.
    @Test func jpegSheetsAndShortIntervals() throws {
        let video = try StoryboardFixture.video()
        let request = StoryboardRequest(streamIndex: video.video.index, duration: StoryboardFixture.duration,
                                        interval: 2.5, columns: 5, rows: 3, tileWidth: 160, tileHeight: 90)
        let layout = try #require(StoryboardLayout(request))
        #expect(layout.tileCount == 38 && layout.sheetCount == 3)
        let service = LocalMediaService()
        let shown = try Self.tileIndices(video, request, service: service)
        let expected = try Self.expectedIndices(video, layout, fps: StoryboardFixture.fps, blank: StoryboardFixture.blank)
        #expect(expected[14] == 0 && expected[15] == 0)  // 35 s and 37.5 s: the blank keyframes at 36 s and 38 s
        #expect(shown == expected, "shown \(shown), expected \(expected)")
        // The index was found once for the file, and is kept.
        #expect(service.storyboards.keyframes.index(for: .init(file: video.file, streamIndex: video.video.index))?.times.count
                == StoryboardFixture.keyframeTimes.count)
    }

    /// The request from the probe: the file's first video stream and duration, 320-wide tiles.
    @Test func requestFromTheProbe() throws {
        let video = try StoryboardFixture.video()
        let request = try #require(StoryboardRequest(info: video.info))
        #expect(request.streamIndex == video.video.index && request.duration == 95)
        #expect(request.tileWidth == 320 && request.tileHeight == 180 && request.format == .jpeg)
        #expect(request.columns == 10 && request.rows == 10 && request.interval == 10)
        let layout = try #require(StoryboardLayout(request))
        #expect(layout.sheetCount == 1 && layout.sheetSize(0) == .init(width: 3200, height: 180))
        let bytes = try LocalMediaService().storyboardSheet(of: video.file, request: request, sheet: 0)
        #expect(bytes.count == layout.encodedSize(sheet: 0))
        #expect(throws: MediaError.self) {
            _ = try LocalMediaService().storyboardSheet(of: video.file, request: request, sheet: 1)
        }
    }

    /// Matroska (times in milliseconds) at 24000/1001 fps, from the test library.
    @Test func matroska() throws {
        let video = try LibraryVideo("movie-1080p.mkv")
        let request = StoryboardRequest(streamIndex: video.video.index, duration: try #require(video.info.container.duration),
                                        interval: 1.5, columns: 6, rows: 2, tileWidth: 160, tileHeight: 90, format: .png)
        let layout = try #require(StoryboardLayout(request))
        let fps = 24000.0 / 1001
        let shown = try Self.tileIndices(video, request), expected = try Self.expectedIndices(video, layout, fps: fps)
        #expect(shown == expected, "shown \(shown), expected \(expected)")
    }

    /// HDR sources are tone-mapped as thumbnails are: a tile is the near- thumbnail of its time,
    /// pixel for pixel (the same frame through the same converter at the same size; HEVC keeps
    /// its loop filter).
    @Test(arguments: ["clips/hdr-pq.mkv", "clips/hdr-hlg.mkv"])
    func hdrTilesAreToneMapped(_ path: String) throws {
        let video = try LibraryVideo(path)
        let request = StoryboardRequest(streamIndex: video.video.index, duration: try #require(video.info.container.duration),
                                        interval: 1, columns: 2, rows: 1, tileWidth: 320, tileHeight: 180, format: .png)
        let service = LocalMediaService()
        let sheet = try StoredPNG(service.storyboardSheet(of: video.file, request: request, sheet: 0))
        for (i, time) in [0.0, 1.0].enumerated() {
            let thumbnail = try video.thumbnail(service, at: time, .nearestKeyframe)
            #expect(thumbnail.png.width == 320 && thumbnail.png.height == 180)
            #expect(sheet.region(x: 320 * i, y: 0, width: 320, height: 180).rgb == thumbnail.png.rgb, "tile \(i)")
        }
    }

    /// A rotated phone video: upright tiles, 568 pixels high at 320 wide (its display aspect).
    @Test func rotatedVideo() throws {
        let video = try LibraryVideo("clips/portrait-rotated.mp4")
        let request = try #require(StoryboardRequest(info: video.info, interval: 1, columns: 2, rows: 1, format: .png))
        #expect(request.tileWidth == 320 && request.tileHeight == 568)
        let sheet = try StoredPNG(LocalMediaService().storyboardSheet(of: video.file, request: request, sheet: 0))
        let turns = ThumbnailGeometry.clockwiseQuarterTurns(rotation: video.video.rotation)
        let first = FrameIndexStrip.read(sheet.region(x: 0, y: 0, width: 320, height: 568), clockwiseQuarterTurns: turns)
        #expect(first == 0)
    }

    /// A file cut short (the first 45% of the feature, its index and duration whole): the tiles
    /// past the cut show the last keyframe there is, and every sheet is made at its size.
    @Test func truncatedFile() throws {
        let video = try LibraryVideo("broken/feature-truncated.mp4")
        let request = StoryboardRequest(streamIndex: video.video.index, duration: try #require(video.info.container.duration),
                                        interval: 2, columns: 5, rows: 2, tileWidth: 160, tileHeight: 90, format: .png)
        let shown = try Self.tileIndices(video, request)
        #expect(shown.count == 15)
        #expect(Array(shown.prefix(6)) == [0, 50, 100, 150, 200, 250])
        #expect(Set(shown.suffix(5)).count == 1)  // all past the cut: the last keyframe read
    }

    /// Audio alone, or no duration: no storyboard.
    @Test func noStoryboardWithoutVideo() throws {
        let song = try TestMedia.file("audio/song.mp3")
        let info = try Prober.probe(path: FilePath(song.path), size: Int64(try FileManager.default.attributesOfItem(atPath: song.path)[.size] as! UInt64))
        #expect(StoryboardRequest(info: info) == nil)
        #expect(ContactSheetRequest(info: info, fileName: "song.mp3") == nil)
    }

    /// The keyframes are kept per file version: another modification time misses and replaces it.
    @Test func keyframeIndexCacheByVersion() {
        let cache = KeyframeIndexCache(capacity: 2)
        let v1 = MediaFile(path: "/a.mkv", size: 10, modificationNanoseconds: 1)
        let v2 = MediaFile(path: "/a.mkv", size: 10, modificationNanoseconds: 2)
        cache.keep(KeyframeIndex(times: [0, 5]), for: .init(file: v1, streamIndex: 0))
        #expect(cache.index(for: .init(file: v1, streamIndex: 0))?.times == [0, 5])
        #expect(cache.index(for: .init(file: v2, streamIndex: 0)) == nil)
        cache.keep(KeyframeIndex(times: [0, 7]), for: .init(file: v2, streamIndex: 0))
        #expect(cache.index(for: .init(file: v1, streamIndex: 0)) == nil)
        for n in 0..<3 {
            cache.keep(KeyframeIndex(times: [Int64(n)]), for: .init(file: MediaFile(path: FilePath("/\(n)"), size: 1, modificationNanoseconds: 0), streamIndex: 0))
        }
        #expect(cache.index(for: .init(file: v2, streamIndex: 0)) == nil)  // the least recently used, gone past 2
        cache.forget(path: "/2")
        #expect(cache.index(for: .init(file: MediaFile(path: "/2", size: 1, modificationNanoseconds: 0), streamIndex: 0)) == nil)
    }

    /// The two-step tile scaler gives the thumbnails' picture, near enough, whatever the matrix
    /// (BT.709 said, BT.601 guessed from the size of an MPEG-2 frame that says none) and depth
    /// (10-bit HEVC).
    @Test(arguments: ["feature-1080p.mp4", "clips/anamorphic-pal.mpg", "clips/clip-hevc10.mkv", "movie-1080p.mkv"])
    func tileScalerMatchesTheThumbnails(_ path: String) throws {
        let video = try LibraryVideo(path)
        let key = DecodeSession.Key(file: video.file, streamIndex: video.video.index, pick: .nearestKeyframe)
        let session = try DecodeSession(key: key, limits: ThumbnailLimits())
        let index = try KeyframeIndex.scan(session)
        let frame = try session.keyframe(at: try #require(index.times.first), in: index, skipsLoopFilter: false)
        let width = Int(frame.pointer.pointee.width) / 4, height = Int(frame.pointer.pointee.height) / 4
        let tile = try TileScaler().scale(frame, width: width, height: height)
        let reference = try Scaler().scale(frame, width: width, height: height)
        func packed(_ image: RGBImage) -> [UInt8] {
            (0..<height).flatMap { image.pixels[$0 * image.stride ..< $0 * image.stride + 3 * width] }
        }
        let quality = psnr(packed(tile), packed(reference))
        #expect(quality >= 35, "\(path): \(quality) dB")
    }

    /// MP4's sample table gives the keyframes that demuxing every packet gives, reading only the
    /// keyframes' packets; Matroska is demuxed whole; an MP4 whose data is cut short of its index
    /// is too.
    @Test func keyframesFromTheSampleTable() throws {
        func session(_ video: LibraryVideo) throws -> DecodeSession {
            try DecodeSession(key: .init(file: video.file, streamIndex: video.video.index, pick: .nearestKeyframe),
                              limits: ThumbnailLimits())
        }
        for video in [try StoryboardFixture.video(), try LibraryVideo("feature-1080p.mp4")] {
            let listed = try #require(try KeyframeIndex.fromSampleTable(try session(video)))
            let demuxed = try KeyframeIndex.byDemuxing(try session(video))
            #expect(listed.times == demuxed.times && !listed.times.isEmpty, "\(video.file.path)")
        }
        #expect(try KeyframeIndex.fromSampleTable(try session(try LibraryVideo("movie-1080p.mkv"))) == nil)
        #expect(try KeyframeIndex.fromSampleTable(try session(try LibraryVideo("broken/feature-truncated.mp4"))) == nil)
    }

    /// Sheets asked for from many threads at once, of one service: each the sheet one thread alone
    /// makes, byte for byte. Past the sheet's time bound: `MediaError.timedOut`.
    @Test func concurrentSheetsAndTheTimeBound() throws {
        let video = try StoryboardFixture.video()
        let request = StoryboardRequest(streamIndex: video.video.index, duration: StoryboardFixture.duration,
                                        interval: 5, columns: 4, rows: 3, tileWidth: 160, tileHeight: 90)
        let layout = try #require(StoryboardLayout(request))
        let alone = try (0..<layout.sheetCount).map { try LocalMediaService().storyboardSheet(of: video.file, request: request, sheet: $0) }
        let service = LocalMediaService()
        let made = Mutex<[Int: [UInt8]]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            do {
                let bytes = try service.storyboardSheet(of: video.file, request: request, sheet: i % layout.sheetCount)
                made.withLock { $0[i] = bytes }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        for i in 0..<8 { #expect(made.withLock { $0[i] } == alone[i % layout.sheetCount], "request \(i)") }
        #expect(throws: MediaError.timedOut(seconds: 1e-9)) {
            _ = try LocalMediaService(sheetTimeout: 1e-9).storyboardSheet(of: video.file, request: request, sheet: 0)
        }
    }
}
