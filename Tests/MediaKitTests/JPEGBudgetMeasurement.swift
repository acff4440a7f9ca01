import Foundation
@testable import MediaKit
import SystemPackage
import Testing

/// The figures Docs/ARCHITECTURE.md quotes for the JPEG budget, on films given in
/// `MEDIAFS_JPEG_MEASURE` (paths separated by `:`; skipped without it): the frames `thumbs/`
/// lists (every 15 s of a 10-minute film and the quarters) at the default size, 320 wide, and
/// some at larger sizes. Prints tables; asserts nothing but that every file has its size.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_JPEG_MEASURE"] != nil,
                "set MEDIAFS_JPEG_MEASURE=film.mp4[:film2.mp4] to measure the JPEG budget"),
       .serialized)
struct JPEGBudgetMeasurement {
    static let films = (ProcessInfo.processInfo.environment["MEDIAFS_JPEG_MEASURE"] ?? "")
        .split(separator: ":").map(String.init)

    /// The listed frames of `path` as RGB, fitted in `box` (from the PNG thumbnails, exact pixels).
    static func listedFrames(_ path: String, box: ThumbnailBox = .width(320)) throws -> [RGBImage] {
        let service = LocalMediaService(probeTimeout: 20)
        var st = stat()
        guard stat(path, &st) == 0 else { throw StoredPNG.Malformed(description: "no \(path)") }
        let file = MediaFile(path: FilePath(path), size: Int64(st.st_size), modificationNanoseconds: Int64(st.st_mtim.tv_sec))
        let info = try service.probe(path: FilePath(path), size: file.size)
        guard let video = info.streams.first(where: \.isMovingVideo),
              let size = ThumbnailGeometry.outputSize(of: video, box: box) else {
            throw StoredPNG.Malformed(description: "\(path) has no video")
        }
        let duration = info.container.duration ?? 0
        var times = Array(stride(from: 0.0, to: duration, by: 15.0))
        times += [0.25, 0.5, 0.75].map { $0 * duration }
        return try times.map { time in
            let request = ThumbnailRequest(streamIndex: video.index, time: time, pick: .exact,
                                           width: size.width, height: size.height)
            let png = try StoredPNG(service.thumbnail(of: file, request: request).bytes)
            return RGBImage(width: png.width, height: png.height, pixels: png.rgb)
        }
    }

    static func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
    static func f1(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Bytes that libjpeg qualities take at three sizes, against the budget's units: what the
    /// budget's constants come from.
    @Test func bytesAtFixedQualities() throws {
        for film in Self.films {
            for (box, count) in [(ThumbnailBox.width(320), 43), (.width(640), 12), (.full, 6)] {
                let frames = try Array(Self.listedFrames(film, box: box).enumerated().filter { $0.offset % (43 / count) == 0 }.map(\.element))
                let (width, height) = (frames[0].width, frames[0].height)
                let units = JPEGBudget.units(blocks: JPEGBudget.blocks(width: width, height: height))
                var line = "\(film) \(width)x\(height) (\(frames.count) frames, \(units) units, budget \(JPEGEncoder.encodedSize(width: width, height: height))):"
                for chroma in [JPEGEncoder.Chroma.full, .halved] {
                    for quality in [85, 90, 95] {
                        let sizes = try frames.map { try JPEGCompressor.compress($0, quality: quality, tables: JPEGBudget.tables(width: width, height: height), chroma: chroma, limit: 1 << 26)!.count }
                        line += " \(chroma == .full ? "444" : "420")q\(quality) median \(Self.median(sizes)) max \(sizes.max()!) (\(Self.f1(Double(sizes.max()! - 640) / Double(units)))/unit);"
                    }
                }
                print(line)
            }
        }
    }

    /// The budget at 320 wide: quality reached, PSNR, padding, against the PNG.
    @Test func budgetOnListedFrames() throws {
        let extra = (ProcessInfo.processInfo.environment["MEDIAFS_JPEG_BUDGETS"] ?? "")
            .split(separator: ",").compactMap { Int($0) }
        for film in Self.films {
            let frames = try Self.listedFrames(film)
            let (width, height) = (frames[0].width, frames[0].height)
            let png = PNGEncoder.encodedSize(width: width, height: height)
            print("\(film): \(frames.count) frames of \(width)x\(height); PNG \(png) bytes")
            let budget = JPEGEncoder.encodedSize(width: width, height: height)
            let runs: [(String, Int, [JPEGEncoder.Chroma])] = [("the encoder", budget, [.full, .halved]), ("4:2:0 alone", budget, [.halved])]
                + extra.flatMap { [("4:4:4 alone", $0, [JPEGEncoder.Chroma.full]), ("4:2:0 alone", $0, [.halved])] }
            for (name, budget, chromas) in runs {
                let start = Date()
                let made = try frames.map { try JPEGEncoder.encode($0, budget: budget, chromas: chromas) }
                let seconds = Date().timeIntervalSince(start) / Double(frames.count)
                #expect(made.allSatisfy { $0.bytes.count == budget })
                let qualities = made.map { $0.quality ?? 0 }
                let padding = made.map(\.paddingBytes)
                let psnrs = try zip(frames, made).map { psnr(try JPEGEncoderTests.ffmpegDecode($1.bytes), $0.pixels) }
                let halved = made.filter { $0.chroma == .halved }.count
                print("  \(name), budget \(budget) (PNG/\(Self.f1(Double(png) / Double(budget)))): quality median \(Self.median(qualities)), worst \(qualities.min()!) (\(halved) at 4:2:0); PSNR median \(Self.f1(Self.median(psnrs))), worst \(Self.f1(psnrs.min()!)) dB; padding median \(Self.median(padding)), max \(padding.max()!), \(Self.f1(100 * Double(padding.reduce(0, +)) / Double(budget * frames.count)))% of all bytes; \(Self.f1(seconds * 1000)) ms a frame")
            }
        }
    }

    /// What the search costs at the full size of a 1080p film: five listed frames.
    @Test func timeAtFullSize() throws {
        for film in Self.films {
            let frames = try Array(Self.listedFrames(film, box: .full).prefix(5))
            let (width, height) = (frames[0].width, frames[0].height)
            func milliseconds(_ work: () throws -> Void) rethrows -> Double {
                let start = Date()
                try work()
                return Date().timeIntervalSince(start) * 1000 / Double(frames.count)
            }
            var made: [JPEGEncoder.Encoded] = []
            let searched = try milliseconds { made = try frames.map { try JPEGEncoder.encode($0) } }
            let once = try milliseconds { for frame in frames { _ = try JPEGCompressor.compress(frame, quality: 90, tables: .optimized, limit: 1 << 26) } }
            let png = try milliseconds { for frame in frames { _ = try PNGEncoder.encode(frame) } }
            print("\(film) at \(width)x\(height): budget \(JPEGEncoder.encodedSize(width: width, height: height)) (PNG/\(Self.f1(Double(PNGEncoder.encodedSize(width: width, height: height)) / Double(JPEGEncoder.encodedSize(width: width, height: height))))), qualities \(made.map { $0.quality ?? 0 }), padding \(made.map(\.paddingBytes)); search \(Int(searched)) ms a frame, one q90 encode \(Int(once)) ms, PNG \(Int(png)) ms")
        }
    }
}
