import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Thumbnails asked for as JPEG: the same frame as the PNG of the same request, exactly
/// `ImageEncoder.encodedSize` long, read by ffmpeg and by Python's PIL.
@Suite struct JPEGThumbnailTests {
    /// The thumbnail of `video` at `time` in both formats, from one service.
    static func both(_ video: LibraryVideo, _ service: LocalMediaService, at time: Double,
                     box: ThumbnailBox = .width(320)) throws -> (png: Thumbnail, jpeg: Thumbnail, request: ThumbnailRequest) {
        var request = try video.request(time, box: box)
        let png = try service.thumbnail(of: video.file, request: request)
        request.format = .jpeg
        let jpeg = try service.thumbnail(of: video.file, request: request)
        return (png, jpeg, request)
    }

    @Test(arguments: [("feature-1080p.mp4", 7.3), ("feature-1080p.mp4", 20.0), ("movie-1080p.mkv", 4.0),
                      ("clips/portrait-rotated.mp4", 1.5), ("clips/anamorphic-pal.mpg", 1.0)])
    func theJPEGShowsThePNGsPicture(path: String, time: Double) throws {
        let video = try LibraryVideo(path)
        let (png, jpeg, request) = try Self.both(video, LocalMediaService(), at: time)
        #expect(png.format == .png && jpeg.format == .jpeg)
        #expect(jpeg.bytes.count == ImageEncoder.encodedSize(format: .jpeg, width: request.width, height: request.height, source: .unknown))
        #expect(png.bytes.count == ImageEncoder.encodedSize(format: .png, width: request.width, height: request.height, source: .unknown))
        #expect(jpeg.frameTime == png.frameTime && jpeg.isKeyframe == png.isKeyframe && jpeg.meanLuma == png.meanLuma)
        #expect(png.jpegQuality == nil && (jpeg.jpegQuality ?? 0) >= 85)
        let pixels = try StoredPNG(png.bytes).rgb
        let decoded = try JPEGEncoderTests.ffmpegDecode(jpeg.bytes)
        #expect(decoded.count == pixels.count)
        let ratio = psnr(decoded, pixels)
        #expect(ratio >= 35, "\(path) at \(time): \(ratio) dB at quality \(jpeg.jpegQuality ?? 0)")
        let strip = try StoredPNG(png.bytes)
        let turns = ThumbnailGeometry.clockwiseQuarterTurns(rotation: video.video.rotation)
        var fromJPEG = strip
        fromJPEG.rgb = decoded
        #expect(FrameIndexStrip.read(fromJPEG, clockwiseQuarterTurns: turns) == FrameIndexStrip.read(strip, clockwiseQuarterTurns: turns))
    }

    /// PIL (libjpeg underneath, but its own reading of the file) opens the JPEG as a JPEG of
    /// the right size, in RGB, and decodes it whole.
    @Test(.enabled(if: PythonImaging.missing == nil, "Python PIL is not installed (apt-get install python3-pil, or pip install Pillow)"))
    func pythonPILReadsIt() throws {
        let video = try LibraryVideo("feature-1080p.mp4")
        let (png, jpeg, request) = try Self.both(video, LocalMediaService(), at: 12.5)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-pil-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpegFile = folder.appendingPathComponent("at-12.5s.jpg"), pngFile = folder.appendingPathComponent("at-12.5s.png")
        try Data(jpeg.bytes).write(to: jpegFile)
        try Data(png.bytes).write(to: pngFile)
        let readJPEG = try PythonImaging.read(jpegFile)
        #expect(readJPEG.format == "JPEG" && readJPEG.mode == "RGB")
        #expect(readJPEG.width == request.width && readJPEG.height == request.height)
        let readPNG = try PythonImaging.read(pngFile)
        let pngPixels = try StoredPNG(png.bytes).rgb
        #expect(readPNG.format == "PNG" && readPNG.rgb == pngPixels)
        #expect(psnr(readJPEG.rgb, readPNG.rgb) >= 35)
    }

    /// A JPEG at the full size of a 1080p frame: exact, and within the budget at a high quality.
    @Test func aFullSizeFrame() throws {
        let video = try LibraryVideo("movie-1080p.mkv")
        let (png, jpeg, request) = try Self.both(video, LocalMediaService(), at: 2.0, box: .full)
        #expect(jpeg.bytes.count == JPEGBudget(width: request.width, height: request.height, source: .unknown).bytes)
        #expect(jpeg.bytes.count * 5 <= png.bytes.count)
        #expect(psnr(try JPEGEncoderTests.ffmpegDecode(jpeg.bytes), try StoredPNG(png.bytes).rgb) >= 35)
    }
}
