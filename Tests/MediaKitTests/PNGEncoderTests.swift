import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// The PNG's length is known from its size alone, and the file is a valid PNG of the pixels given.
@Suite struct PNGEncoderTests {
    /// A picture with every byte different from its neighbours (a worst case for any compression).
    static func noise(_ width: Int, _ height: Int, seed: UInt64) -> RGBImage {
        var state = seed | 1
        var pixels = [UInt8](repeating: 0, count: 3 * width * height)
        for i in pixels.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            pixels[i] = UInt8(truncatingIfNeeded: state)
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func flat(_ width: Int, _ height: Int, _ value: UInt8) -> RGBImage {
        RGBImage(width: width, height: height, pixels: [UInt8](repeating: value, count: 3 * width * height))
    }

    @Test(arguments: [
        (1, 1), (2, 2), (3, 7), (319, 179), (320, 180), (333, 77), (640, 360), (1279, 719),
        (1920, 1080), (3840, 2160),
        // Rows around the 32 KiB a stored block waits for, and the widest allowed.
        (10_922, 5), (10_923, 5), (12_000, 7), (16_384, 3),
        (5461, 6), (1, 5000), (4, 2731),
    ])
    func encodedSizeIsTheLengthOfTheFile(width: Int, height: Int) throws {
        let png = try PNGEncoder.encode(Self.noise(width, height, seed: UInt64(width * 7919 + height)))
        #expect(png.count == PNGEncoder.encodedSize(width: width, height: height))
        let read = try StoredPNG(png)
        #expect(read.width == width && read.height == height)
        #expect(read.chunks == ["IHDR", "sRGB", "IDAT", "IEND"])
    }

    @Test func differentPicturesOfOneSizeHaveOneLength() throws {
        let sizes = try [Self.flat(320, 180, 0), Self.flat(320, 180, 255), Self.noise(320, 180, seed: 1), Self.noise(320, 180, seed: 2)]
            .map { try PNGEncoder.encode($0).count }
        #expect(Set(sizes) == [PNGEncoder.encodedSize(width: 320, height: 180)])
        // The figure the docs quote.
        #expect(sizes[0] == 173_086)
    }

    /// The sRGB chunk comes right after IHDR: length 1, rendering intent 0 (perceptual).
    @Test func theFileSaysItsPixelsAreSRGB() throws {
        let png = try PNGEncoder.encode(Self.noise(3, 2, seed: 4))
        #expect(Array(png[33 ..< 46].prefix(9)) == [0, 0, 0, 1, 0x73, 0x52, 0x47, 0x42, 0])
        #expect(try StoredPNG(png).chunks == ["IHDR", "sRGB", "IDAT", "IEND"])
    }

    @Test func pixelsComeBackAsTheyWent() throws {
        let image = Self.noise(37, 23, seed: 99)
        let read = try StoredPNG(try PNGEncoder.encode(image))
        #expect(read.rgb == image.pixels)
    }

    @Test func paddedRowsAreWrittenWithoutThePadding() throws {
        let tight = Self.noise(5, 4, seed: 5)
        var padded = [UInt8](repeating: 0xAA, count: 32 * 4)
        for y in 0..<4 { padded.replaceSubrange(y * 32 ..< y * 32 + 15, with: tight.pixels[y * 15 ..< y * 15 + 15]) }
        let png = try PNGEncoder.encode(RGBImage(width: 5, height: 4, stride: 32, pixels: padded))
        #expect(try StoredPNG(png).rgb == tight.pixels)
    }

    /// Another decoder (FFmpeg's) reads the file the same way.
    @Test func ffmpegReadsTheSamePixels() throws {
        let image = Self.noise(64, 48, seed: 7)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-png-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(try PNGEncoder.encode(image)).write(to: url)
        let decoded = try FFmpegFrames.run(["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        #expect(decoded == image.pixels)
    }

    @Test func largerThanTheLimitIsAnError() {
        #expect(throws: MediaError.self) { _ = try PNGEncoder.encode(Self.flat(PNGEncoder.maximumSide + 1, 1, 0)) }
    }

    @Test func rotationTurnsClockwise() {
        // 2×1: red, green. One turn clockwise: 1×2, red on top.
        let image = RGBImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 255, 0])
        let once = image.rotated(clockwiseQuarterTurns: 1)
        #expect(once.width == 1 && once.height == 2 && once.pixels == [255, 0, 0, 0, 255, 0])
        // 1×2 (red over green) turned clockwise: green, red (the bottom row goes to the left).
        let tall = RGBImage(width: 1, height: 2, pixels: [255, 0, 0, 0, 255, 0])
        #expect(tall.rotated(clockwiseQuarterTurns: 1).pixels == [0, 255, 0, 255, 0, 0])
        #expect(tall.rotated(clockwiseQuarterTurns: 3).pixels == [255, 0, 0, 0, 255, 0])
        #expect(image.rotated(clockwiseQuarterTurns: 2).pixels == [0, 255, 0, 255, 0, 0])
        let noise = Self.noise(7, 5, seed: 3)
        #expect(noise.rotated(clockwiseQuarterTurns: 1).rotated(clockwiseQuarterTurns: 3) == noise)
        #expect(noise.rotated(clockwiseQuarterTurns: 2).rotated(clockwiseQuarterTurns: 2) == noise)
    }
}
