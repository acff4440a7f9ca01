import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Cover art read from the header, JPEG sizes without decoding, and pictures turned into PNGs of
/// an exact size.
@Suite struct StillImageTests {
    let media = LocalMediaService(probeTimeout: 20)

    func coverOf(_ relativePath: String) throws -> (CoverArt?, MediaInfo) {
        let url = try TestMedia.file(relativePath)
        let size = try Chapters.size(url)
        return (try media.coverArt(path: FilePath(url.path), size: size), try media.probe(path: FilePath(url.path), size: size))
    }

    @Test func theAudiobookCoverIsTheJPEGTheProbeShows() throws {
        let (cover, info) = try coverOf("audio/audiobook.m4a")
        let art = try #require(cover)
        let stream = try #require(info.coverStream)
        #expect(art.codec == "mjpeg" && art.streamIndex == stream.index)
        let size = try #require(JPEGHeader.dimensions(art.bytes))
        #expect(size.width == stream.width && size.height == stream.height)
        #expect(size == (600, 900))
        let png = try media.stillImage(bytes: art.bytes, codec: art.codec, width: 600, height: 900, format: .png)
        #expect(png.count == PNGEncoder.encodedSize(width: 600, height: 900))
        let decoded = try StoredPNG(png)
        #expect(decoded.width == 600 && decoded.height == 900)
        // Scaled when asked for another size, still exact.
        let small = try media.stillImage(bytes: art.bytes, codec: art.codec, width: 60, height: 90, format: .png)
        #expect(small.count == PNGEncoder.encodedSize(width: 60, height: 90))
    }

    @Test func aMatroskaImageAttachmentIsCoverArt() throws {
        let (cover, info) = try coverOf("movie-1080p.mkv")
        #expect(cover?.codec == "mjpeg" && cover?.streamIndex == info.coverStream?.index)
    }

    @Test func filesWithoutCoverHaveNone() throws {
        for path in ["feature-1080p.mp4", "audio/song.mp3", "clips/clip-vp9.webm"] {
            let (cover, info) = try coverOf(path)
            #expect(cover == nil && info.coverStream == nil, "\(path)")
        }
    }

    /// An MP4 chapter image track's first image is `attached_pic` too, but it is no cover.
    @Test func aChapterImageTrackIsNotACover() throws {
        let url = try ChapterMedia.file("two-languages.mp4")
        let size = try Chapters.size(url)
        let info = try media.probe(path: FilePath(url.path), size: size)
        #expect(info.streams.contains { $0.disposition.contains("attached_pic") })
        #expect(info.coverStream == nil)
        #expect(try media.coverArt(path: FilePath(url.path), size: size) == nil)
    }

    @Test func jpegHeadersThatGiveNoSize() {
        #expect(JPEGHeader.dimensions([]) == nil)
        #expect(JPEGHeader.dimensions([0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(JPEGHeader.dimensions([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) == nil)          // cut in APP0
        #expect(JPEGHeader.dimensions([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]) == nil)          // scan before a frame
        // A frame header with fill bytes before it, after a DHT (0xC4, not a frame header).
        let header: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x02, 0xFF, 0xFF, 0xC2, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80]
        #expect(JPEGHeader.dimensions(header).map { [$0.width, $0.height] } == [640, 480])
        // Height 0 (given later by a DNL marker): no size.
        #expect(JPEGHeader.dimensions([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x00, 0x02, 0x80]) == nil)
    }

    @Test func undecodablePicturesAreErrors() {
        #expect(throws: MediaError.self) { try media.stillImage(bytes: [0xFF, 0xD8, 0xFF, 0xD9], codec: "mjpeg", width: 8, height: 8, format: .png) }
        #expect(throws: MediaError.self) { try media.stillImage(bytes: [1, 2, 3], codec: "no-such-codec", width: 8, height: 8, format: .png) }
        #expect(throws: MediaError.self) { try media.stillImage(bytes: [1, 2, 3], codec: "png", width: 0, height: 8, format: .png) }
    }

    @Test func meanLumaTellsBlackFromPictures() {
        #expect(RGBImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 12)).meanLuma == 0)
        #expect(RGBImage(width: 2, height: 1, pixels: [255, 255, 255, 0, 0, 0]).meanLuma > 127)
    }
}
