import SystemPackage
import Foundation
import CAV
@testable import MediaKit
import Testing

/// Where a storyboard's time goes, on films given in `MEDIAFS_STORYBOARD_MEASURE` (paths
/// separated by `:`; skipped without it): a new service each time, so nothing is kept; the
/// probe, the keyframe scan with the first sheet, every sheet, the contact sheet. Prints the
/// times (release builds give the figures worth quoting); asserts only the sizes.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_STORYBOARD_MEASURE"] != nil,
                "set MEDIAFS_STORYBOARD_MEASURE=film.mp4[:film2.mkv] to time storyboards"),
       .serialized)
struct StoryboardMeasurement {
    static let films = (ProcessInfo.processInfo.environment["MEDIAFS_STORYBOARD_MEASURE"] ?? "")
        .split(separator: ":").map(String.init)

    /// Wall-clock seconds of `body`, and the process's CPU seconds meanwhile (user and system,
    /// all threads: what a loaded machine does not change much).
    static func seconds(_ body: () throws -> Void) rethrows -> String {
        func cpu() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let start = DispatchTime.now().uptimeNanoseconds, startCPU = cpu()
        try body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return String(format: "%.3f s (CPU %.3f s)", wall, cpu() - startCPU)
    }

    /// Where a picture made of `film` is kept for a person to look at: the temporary folder.
    static func kept(_ film: String, _ name: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("mediafs-\((film as NSString).lastPathComponent)-\(name)")
    }

    /// Times every sheet and the contact sheet of each film (kept in the temporary folder).
    @Test func timeStoryboards() throws {
        for path in Self.films {
            let video = try LibraryVideo(absolutePath: path)
            let service = LocalMediaService()
            var probed: MediaInfo?
            let probe = try Self.seconds { probed = try service.probe(path: FilePath(path), size: video.file.size) }
            let info = try #require(probed)
            let request = try #require(StoryboardRequest(info: info))
            let layout = try #require(StoryboardLayout(request))
            var sheets: [String] = []
            for sheet in 0..<layout.sheetCount {
                sheets.append(try Self.seconds {
                    let bytes = try service.storyboardSheet(of: video.file, request: request, sheet: sheet)
                    #expect(bytes.count == layout.encodedSize(sheet: sheet))
                    try? Data(bytes).write(to: Self.kept(path, layout.sheetName(sheet)))
                })
            }
            let contact = try #require(ContactSheetRequest(info: info, fileName: (path as NSString).lastPathComponent))
            let sheetTime = try Self.seconds {
                let bytes = try service.contactSheet(of: video.file, request: contact, format: .jpeg)
                #expect(bytes.count == ContactSheetLayout(contact)!.encodedSize(format: .jpeg))
                try? Data(bytes).write(to: Self.kept(path, "contact-sheet.jpg"))
            }
            let alone = LocalMediaService()
            _ = try alone.probe(path: FilePath(path), size: video.file.size)
            let coldContact = try Self.seconds { _ = try alone.contactSheet(of: video.file, request: contact, format: .jpeg) }
            print("\(path): probe \(probe); sheets \(sheets) (\(layout.tileCount) tiles, "
                  + "\(layout.sheetCount) sheets); contact sheet after them \(sheetTime), alone \(coldContact)")
        }
    }
}

extension StoryboardMeasurement {
    /// The parts of one cold sheet, each timed alone and in one thread: the keyframe scan,
    /// decoding the keyframes, converting them to tiles, encoding the sheet.
    @Test func timeTheParts() throws {
        for path in Self.films {
            let video = try LibraryVideo(absolutePath: path)
            let request = try #require(StoryboardRequest(info: video.info))
            let layout = try #require(StoryboardLayout(request))
            let key = DecodeSession.Key(file: video.file, streamIndex: video.video.index, pick: .nearestKeyframe)
            let limits = ThumbnailLimits(timeout: 600, maxDecodedFrames: 100_000)
            var session = try DecodeSession(key: key, limits: limits)
            var index = KeyframeIndex(times: [])
            let open = try Self.seconds { session = try DecodeSession(key: key, limits: limits) }
            let scan = try Self.seconds { index = try KeyframeIndex.scan(session) }
            let tiles = layout.tiles(inSheet: 0).map { layout.tile($0) }
            var frames: [Frame] = []
            let decode = try Self.seconds {
                for tile in tiles {
                    frames.append(try session.keyframe(at: index.nearest(to: session.pts(forSeconds: tile.time))!, in: index))
                }
            }
            var pictures: [RGBImage] = []
            let scaler = TileScaler()
            let convert = try Self.seconds {
                pictures = try frames.map { try session.uprightTile(of: $0, width: request.tileWidth, height: request.tileHeight, scaler: scaler) }
            }
            let size = layout.sheetSize(0)
            var canvas = RGBImage(width: size.width, height: size.height, color: (0, 0, 0))
            let compose = Self.seconds {
                for (tile, picture) in zip(tiles, pictures) { canvas.draw(picture, x: tile.x, y: tile.y) }
            }
            let encode = try Self.seconds { _ = try ImageEncoder.encode(canvas, format: .jpeg, source: .unknown) }
            print("\(path): open \(open), scan \(scan) (\(index.times.count) keyframes), decode \(decode), "
                  + "convert \(convert), compose \(compose), encode \(encode) (\(size))")
        }
    }
}

extension StoryboardMeasurement {
    /// What swscale's flags cost at a tile's size, on the film's keyframes.
    @Test func timeScalers() throws {
        for path in Self.films {
            let video = try LibraryVideo(absolutePath: path)
            let key = DecodeSession.Key(file: video.file, streamIndex: video.video.index, pick: .nearestKeyframe)
            let session = try DecodeSession(key: key, limits: ThumbnailLimits(timeout: 600, maxDecodedFrames: 100_000))
            let index = try KeyframeIndex.scan(session)
            let frames = try index.times.prefix(30).map { try session.keyframe(at: $0, in: index) }
            let reference = try frames.map { try Scaler().scale($0, width: 320, height: 180) }
            for (name, flags) in [("bicubic+accurate_rnd+full_chroma_int", Scaler.flags), ("bicubic", SWS_BICUBIC),
                                  ("bilinear", SWS_BILINEAR), ("area", SWS_AREA), ("bicubic+accurate_rnd", SWS_BICUBIC | SWS_ACCURATE_RND)] {
                let scaler = Scaler(flags: flags)
                var made: [RGBImage] = []
                let time = try Self.seconds { made = try frames.map { try scaler.scale($0, width: 320, height: 180) } }
                let quality = zip(made, reference).map { psnr(Array($0.pixels.prefix(320 * 180 * 3)), Array($1.pixels.prefix(320 * 180 * 3))) }.min() ?? 0
                print("\(name): 30 frames \(time), worst PSNR against the thumbnails' \(quality) dB")
            }
            let tiles = TileScaler()
            var made: [RGBImage] = []
            let time = try Self.seconds { made = try frames.map { try tiles.scale($0, width: 320, height: 180) } }
            let quality = zip(made, reference).map { psnr($0.pixels, Array($1.pixels.prefix(320 * 180 * 3))) }.min() ?? 0
            print("TileScaler: 30 frames \(time), worst PSNR against the thumbnails' \(quality) dB")
        }
    }
}

extension StoryboardMeasurement {
    /// What skipping the loop filter changes in the tiles, and what it saves.
    @Test func loopFilter() throws {
        for path in Self.films {
            let video = try LibraryVideo(absolutePath: path)
            let key = DecodeSession.Key(file: video.file, streamIndex: video.video.index, pick: .nearestKeyframe)
            let session = try DecodeSession(key: key, limits: ThumbnailLimits(timeout: 600, maxDecodedFrames: 100_000))
            let index = try KeyframeIndex.scan(session)
            let times = Array(index.times.prefix(30))
            var skipped: [RGBImage] = [], filtered: [RGBImage] = []
            let fast = try Self.seconds {
                skipped = try times.map { try session.uprightPicture(of: session.keyframe(at: $0, in: index), width: 320, height: 180) }
            }
            StoryboardMaker.release(session)
            let plain = try Self.seconds {
                filtered = try times.map {
                    try session.uprightPicture(of: session.keyframe(at: $0, in: index, skipsLoopFilter: false), width: 320, height: 180)
                }
            }
            let quality = zip(skipped, filtered).map { psnr($0.pixels, $1.pixels) }.sorted()
            print("\(path): 30 keyframes without the loop filter \(fast), with it \(plain); PSNR worst \(quality.first ?? 0) dB, median \(quality[quality.count / 2]) dB")
        }
    }
}
