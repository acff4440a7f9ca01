import Foundation
@testable import MediaKit
import Testing

/// The JPEG's length is its budget whatever the pixels, and the file is a baseline JFIF JPEG of
/// the picture given that other decoders read.
@Suite struct JPEGEncoderTests {
    static func noise(_ width: Int, _ height: Int, seed: UInt64) -> RGBImage { PNGEncoderTests.noise(width, height, seed: seed) }
    static func flat(_ width: Int, _ height: Int, _ value: UInt8) -> RGBImage { PNGEncoderTests.flat(width, height, value) }

    /// A smooth picture: diagonal colour ramps, like sky or a wall.
    static func gradient(_ width: Int, _ height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: 3 * width * height)
        for y in 0..<height {
            for x in 0..<width {
                let at = 3 * (y * width + x)
                pixels[at] = UInt8(255 * x / max(width - 1, 1))
                pixels[at + 1] = UInt8(255 * y / max(height - 1, 1))
                pixels[at + 2] = UInt8(255 * (x + y) / max(width + height - 2, 1))
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The file ffmpeg decodes `jpeg` to, as tight RGB rows.
    static func ffmpegDecode(_ jpeg: [UInt8]) throws -> [UInt8] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-jpeg-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(jpeg).write(to: url)
        return try FFmpegFrames.run(["-v", "error", "-i", url.path, "-sws_flags", "bicubic+accurate_rnd+full_chroma_int",
                                     "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
    }

    @Test(arguments: [
        (1, 1), (2, 2), (3, 7), (15, 15), (16, 16), (17, 17), (319, 179), (320, 180), (333, 77),
        (640, 360), (1279, 719), (1920, 1080),
        // The widest and tallest allowed, and sides around a block.
        (16_384, 3), (5, 16_384), (16_384, 17), (1, 5000), (31, 33),
    ])
    func encodedSizeIsTheLengthOfTheFile(width: Int, height: Int) throws {
        let budget = JPEGBudget(width: width, height: height, source: .unknown).bytes
        for image in [Self.noise(width, height, seed: UInt64(width * 7919 + height)), Self.flat(width, height, 200),
                      Self.gradient(width, height)] {
            let jpeg = try JPEGEncoder.encode(image)
            #expect(jpeg.bytes.count == budget, "\(width)x\(height)")
            #expect(JPEGHeader.dimensions(jpeg.bytes).map { [$0.width, $0.height] } == [width, height])
            #expect(jpeg.quality != nil, "\(width)x\(height): real pictures, noise included, never need the mosaic")
        }
    }

    @Test func differentPicturesOfOneSizeHaveOneLength() throws {
        let images = [Self.flat(320, 180, 0), Self.flat(320, 180, 255), Self.noise(320, 180, seed: 1), Self.gradient(320, 180)]
        let made = try images.map { try JPEGEncoder.encode($0) }
        #expect(Set(made.map(\.bytes.count)) == [JPEGBudget(width: 320, height: 180, source: .unknown).bytes])
        // The figures the docs quote: at the floor 6.8 times smaller than the PNG, at the ceiling 4.1.
        #expect(JPEGBudget(width: 320, height: 180, source: .unknown).bytes == 25_540)
        #expect(PNGEncoder.encodedSize(width: 320, height: 180) >= 6 * JPEGBudget(width: 320, height: 180, source: .unknown).bytes)
        let busiest = JPEGBudget(width: 320, height: 180, source: PictureSource(milliBitsPerPixel: 5_000))
        #expect(busiest.bytes == 42_140 && PNGEncoder.encodedSize(width: 320, height: 180) >= 4 * busiest.bytes)
        // A flat picture reaches the top quality and pads the rest; noise is what uses the bytes.
        #expect(made[0].quality == 100 && made[0].paddingBytes > 15_000)
        #expect(made[2].quality! < made[3].quality!)
    }

    @Test func theSamePixelsGiveTheSameBytes() throws {
        let image = Self.noise(97, 55, seed: 3)
        #expect(try JPEGEncoder.encode(image) == JPEGEncoder.encode(image))
    }

    /// SOI, JFIF APP0 (version 1.01), the COM padding, then DQT, SOF0 (8-bit, three components,
    /// each sampled 1×1: 4:4:4), DHT, SOS; no other frame type, ends with EOI.
    @Test func theFileIsBaselineJFIF() throws {
        let jpeg = try JPEGEncoder.encode(Self.gradient(321, 181)).bytes
        let file = try JPEGSegments(jpeg)
        #expect(file.endsWithEOI)
        #expect(file.markers.first == 0xE0)
        let app0 = try #require(file.first(0xE0))
        #expect(Array(app0.data.prefix(7)) == [0x4A, 0x46, 0x49, 0x46, 0x00, 1, 1])  // "JFIF\0", 1.01
        #expect(file.markers.dropFirst().prefix { $0 == 0xFE }.count >= 1, "the padding follows APP0")
        #expect(Set(file.markers).isSubset(of: [0xE0, 0xFE, 0xDB, 0xC0, 0xC4, 0xDA]))
        let sof = try #require(file.first(0xC0))
        #expect(sof.data[0] == 8)
        #expect(Int(sof.data[1]) << 8 | Int(sof.data[2]) == 181 && Int(sof.data[3]) << 8 | Int(sof.data[4]) == 321)
        #expect(sof.data[5] == 3)
        #expect([sof.data[7], sof.data[10], sof.data[13]] == [0x11, 0x11, 0x11])
        // The comment: the note, then zeros.
        let comment = try #require(file.first(0xFE))
        #expect(comment.data.starts(with: JPEGPadding.note))
        #expect(comment.data.dropFirst(JPEGPadding.note.count).allSatisfy { $0 == 0 })
    }

    /// ffmpeg decodes the file to the picture: near for a smooth one.
    @Test func ffmpegReadsThePicture() throws {
        let image = Self.gradient(320, 180)
        let jpeg = try JPEGEncoder.encode(image)
        let decoded = try Self.ffmpegDecode(jpeg.bytes)
        #expect(decoded.count == image.pixels.count)
        #expect(psnr(decoded, image.pixels) >= 40, "quality \(jpeg.quality ?? 0)")
    }

    @Test func largerThanTheLimitIsAnError() {
        #expect(throws: MediaError.self) { _ = try JPEGEncoder.encode(Self.flat(JPEGEncoder.maximumSide + 1, 1, 0)) }
        #expect(JPEGEncoder.maximumSide == PNGEncoder.maximumSide && ImageEncoder.maximumSide == PNGEncoder.maximumSide)
    }

    /// libjpeg's own errors (here: past its 65,500 pixels a side) come back as
    /// `MediaError.imageFailed` with libjpeg's message, through the C function's setjmp.
    @Test func libjpegErrorsAreImageFailed() {
        let image = Self.flat(70_000, 1, 9)
        #expect {
            _ = try JPEGCompressor.compress(image, quality: 90, tables: .optimized, limit: 1 << 20)
        } throws: { error in
            guard case .imageFailed(let reason) = error as? MediaError else { return false }
            return reason.contains("65500")
        }
    }

    /// The compressor stops at its limit: nil past it, the file at exactly it.
    @Test func theLimitIsExact() throws {
        let image = Self.noise(64, 48, seed: 11)
        let whole = try #require(try JPEGCompressor.compress(image, quality: 80, tables: .optimized, limit: 1 << 20))
        #expect(try JPEGCompressor.compress(image, quality: 80, tables: .optimized, limit: whole.count) == whole)
        #expect(try JPEGCompressor.compress(image, quality: 80, tables: .optimized, limit: whole.count - 1) == nil)
        #expect(try JPEGCompressor.compress(image, quality: 80, tables: .optimized, limit: 100) == nil)
        #expect(try JPEGCompressor.compress(image, quality: 80, tables: .optimized, limit: 0) == nil)
    }

    /// For every boundary (the highest quality that fits, 0 for none), the search finds it in
    /// at most 9 attempts, 4 for the qualities frames usually get.
    @Test func theSearchFindsTheHighestQualityThatFits() {
        for boundary in 0...100 {
            var attempts: [Int] = []
            let found = JPEGQualitySearch.highest { quality -> [UInt8]? in
                attempts.append(quality)
                return quality <= boundary ? [UInt8(quality)] : nil
            }
            #expect(found?.quality == (boundary == 0 ? nil : boundary) && found?.bytes == (boundary == 0 ? nil : [UInt8(boundary)]))
            #expect(attempts.count <= 9, "\(boundary): \(attempts)")
            #expect(Set(attempts).count == attempts.count)
            if boundary >= 93 { #expect(attempts.count == 4, "\(boundary): \(attempts)") }
            if (85...92).contains(boundary) { #expect(attempts.count <= 5, "\(boundary): \(attempts)") }
        }
    }

    @Test func aLargerBudgetNeverLowersTheQuality() throws {
        let image = Self.noise(160, 90, seed: 5)
        let qualities = try [4_000, 8_000, 16_000, 32_000, 64_000].map { try JPEGEncoder.encode(image, budget: $0).quality ?? 0 }
        #expect(qualities == qualities.sorted())
        #expect(qualities.first! < qualities.last!)
    }
}

extension JPEGEncoder {
    /// `image` at the budget of its size for a source the probe tells nothing of (the floor).
    static func encode(_ image: RGBImage) throws -> Encoded {
        try encode(image, budget: JPEGBudget(width: image.width, height: image.height, source: .unknown))
    }
}
