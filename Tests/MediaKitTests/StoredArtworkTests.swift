import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Artwork served byte for byte: the cover's bytes are the stored picture's, its format and size
/// known from the header; the other format is a conversion of an exact size.
@Suite struct StoredArtworkTests {
    let media = LocalMediaService(probeTimeout: 20)

    /// The attached picture as the ffmpeg command copies it out:
    /// `ffmpeg -i F -map 0:v:N -c copy -f image2 out.jpg`, N the cover's place among the video streams.
    static func ffmpegCopy(_ url: URL, info: MediaInfo, stream: MediaInfo.Stream) throws -> [UInt8] {
        let n = try #require(info.streams.filter { $0.kind == .video }.firstIndex { $0.index == stream.index })
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-cover-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try FFmpegFrames.run(["-v", "error", "-i", url.path, "-map", "0:v:\(n)", "-c", "copy", "-f", "image2", "-y", out.path])
        return try [UInt8](Data(contentsOf: out))
    }

    @Test(arguments: ["audio/audiobook.m4a", "movie-1080p.mkv"])
    func theCoverIsTheStoredJPEGByteForByte(path: String) throws {
        let url = try TestMedia.file(path)
        let size = try Chapters.size(url)
        let info = try media.probe(path: FilePath(url.path), size: size)
        let stream = try #require(info.coverStream)
        let cover = try #require(try media.coverArt(path: FilePath(url.path), size: size))
        #expect(cover.format == .jpeg)
        #expect(cover.bytes == (try Self.ffmpegCopy(url, info: info, stream: stream)))
        // Its size from the header, without decoding: the probe's.
        let dimensions = try #require(cover.format?.dimensions(of: cover.bytes))
        #expect(dimensions.width == stream.width && dimensions.height == stream.height)
    }

    /// The stored JPEG cover asked for as PNG, and as a JPEG of another size: converted, exact.
    @Test func aStoredPictureBecomesTheOtherFormat() throws {
        let url = try TestMedia.file("audio/audiobook.m4a")
        let cover = try #require(try media.coverArt(path: FilePath(url.path), size: try Chapters.size(url)))
        let (width, height) = try #require(JPEGHeader.dimensions(cover.bytes))
        let png = try media.stillImage(bytes: cover.bytes, codec: cover.codec, width: width, height: height, format: .png)
        #expect(png.count == ImageEncoder.encodedSize(format: .png, width: width, height: height, source: .unknown))
        #expect(PNGHeader.dimensions(png).map { [$0.width, $0.height] } == [width, height])
        // PNG to JPEG: the stored-PNG case (an MP4 chapter image, a PNG cover).
        let jpeg = try media.stillImage(bytes: png, codec: "png", width: width, height: height, format: .jpeg)
        #expect(jpeg.count == ImageEncoder.encodedSize(format: .jpeg, width: width, height: height, source: .unknown))
        #expect(try JPEGEncoderTests.ffmpegDecode(jpeg).count == 3 * width * height)
        #expect(psnr(try JPEGEncoderTests.ffmpegDecode(jpeg), try StoredPNG(png).rgb) >= 35)
        let small = try media.stillImage(bytes: cover.bytes, codec: cover.codec, width: 60, height: 90, format: .jpeg)
        #expect(small.count == JPEGBudget(width: 60, height: 90, source: .unknown).bytes)
    }

    /// An MP4 chapter image track's samples are PNGs: served as stored, their size from IHDR, and
    /// as JPEGs converted at that size, exact.
    @Test func aStoredPNGChapterImageAndItsJPEG() throws {
        let url = try ChapterMedia.file("two-languages.mp4")
        let image = try #require(try media.chapterImage(path: FilePath(url.path), size: try Chapters.size(url), index: 0))
        #expect(image.format == .png)
        let (width, height) = try #require(image.format?.dimensions(of: image.bytes))
        let decoded = try JPEGEncoderTests.ffmpegDecode(image.bytes)
        #expect(decoded.count == 3 * width * height)
        let jpeg = try media.stillImage(bytes: image.bytes, codec: image.codec, width: width, height: height, format: .jpeg)
        #expect(jpeg.count == ImageEncoder.encodedSize(format: .jpeg, width: width, height: height, source: .unknown))
        #expect(JPEGHeader.dimensions(jpeg).map { [$0.width, $0.height] } == [width, height])
        #expect(psnr(try JPEGEncoderTests.ffmpegDecode(jpeg), decoded) >= 35)
    }

    @Test func formatsByNameAndCodec() {
        #expect(ImageFormat(fileExtension: "jpg") == .jpeg && ImageFormat(fileExtension: "JPEG") == .jpeg)
        #expect(ImageFormat(fileExtension: "png") == .png && ImageFormat(fileExtension: "gif") == nil)
        #expect(ImageFormat.jpeg.fileExtension == "jpg" && ImageFormat.png.fileExtension == "png")
        #expect(ImageFormat(codec: "mjpeg") == .jpeg && ImageFormat(codec: "png") == .png && ImageFormat(codec: "bmp") == nil)
        #expect(ImageFormat.allCases.allSatisfy { ImageFormat(codec: $0.codec) == $0 })
        #expect(CoverArt(bytes: [], codec: "bmp", streamIndex: 0).format == nil)
        #expect(ChapterImage(bytes: [], codec: "png").format == .png)
    }

    @Test func pngHeadersThatGiveNoSize() throws {
        #expect(PNGHeader.dimensions([]) == nil)
        #expect(PNGHeader.dimensions([0xFF, 0xD8, 0xFF, 0xE0]) == nil)
        let png = try PNGEncoder.encode(PNGEncoderTests.flat(7, 3, 0))
        #expect(PNGHeader.dimensions(png).map { [$0.width, $0.height] } == [7, 3])
        #expect(PNGHeader.dimensions(Array(png.prefix(23))) == nil)  // cut in IHDR
        var zero = png
        zero[16...19] = [0, 0, 0, 0]
        #expect(PNGHeader.dimensions(zero) == nil)
    }
}
