import Foundation
@testable import MediaKit
import Testing

/// The worst case: a picture that does not fit its budget even at quality 1 is written as a mosaic
/// of 32×32 tiles, whose length is proven to stay within `JPEGMosaic.bound` (see `JPEGMosaic`),
/// and every budget holds that bound with room to pad.
@Suite struct JPEGFallbackTests {
    static let sizes = [(1, 1), (2, 3), (16, 16), (17, 33), (320, 180), (333, 77), (1920, 1080), (16_384, 20), (7, 16_384)]

    /// The hardest mosaic for the entropy coder: neighbouring tiles at opposite extremes of
    /// every channel, so each DC difference is as large as baseline allows.
    static func extremes(_ width: Int, _ height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: 3 * width * height)
        let colours: [[UInt8]] = [[0, 0, 0], [255, 255, 255], [255, 0, 255], [0, 255, 0], [0, 0, 255], [255, 255, 0]]
        for y in 0..<height {
            for x in 0..<width {
                let colour = colours[(x / 32 + 3 * (y / 32)) % colours.count]
                pixels.replaceSubrange(3 * (y * width + x) ..< 3 * (y * width + x) + 3, with: colour)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @Test func everyBudgetHoldsTheMosaicWithRoomToPad() {
        for (width, height) in Self.sizes + [(JPEGEncoder.maximumSide, JPEGEncoder.maximumSide)] {
            #expect(JPEGMosaic.bound(width: width, height: height) + JPEGPadding.smallestSegment
                    <= JPEGBudget(width: width, height: height, source: .unknown).bytes)
        }
        #expect(JPEGMosaic.standardHeaderBytes == 625)
    }

    /// Measured against the proof: the mosaic of noise and of the extremes, at the fallback's
    /// quality and tables, is never longer than the bound.
    @Test(arguments: sizes)
    func theMosaicStaysWithinItsBound(width: Int, height: Int) throws {
        let bound = JPEGMosaic.bound(width: width, height: height)
        for image in [PNGEncoderTests.noise(width, height, seed: UInt64(width + 31 * height)), Self.extremes(width, height)] {
            let jpeg = try #require(try JPEGMosaic.compress(image, limit: bound))
            #expect(jpeg.count <= bound)
        }
    }

    /// Pixels each 0 or 255 at random: the most detail a picture can have, the most nonzero AC
    /// coefficients even at quality 1.
    static func binaryNoise(_ width: Int, _ height: Int, seed: UInt64) -> RGBImage {
        var image = PNGEncoderTests.noise(width, height, seed: seed)
        image.pixels = image.pixels.map { $0 & 0x80 == 0 ? 0 : 255 }
        return image
    }

    /// Forced (no real picture needs it, so the budget is cut to below what quality 1 takes; at
    /// sizes where the mosaic's fixed 625 bytes of standard tables leave room for that): the
    /// mosaic is chosen, the file is still exactly the budget, and decoders read it.
    @Test(arguments: [(100, 100), (333, 77), (320, 180), (16_384, 20)])
    func aPictureThatDoesNotFitBecomesTheMosaic(width: Int, height: Int) throws {
        let image = Self.binaryNoise(width, height, seed: 77)
        let mosaic = try #require(try JPEGMosaic.compress(image, limit: 1 << 24))
        let budget = mosaic.count + JPEGPadding.smallestSegment
        for chroma in [JPEGEncoder.Chroma.full, .halved] {
            let lowest = try #require(try JPEGCompressor.compress(image, quality: 1, tables: .optimized, chroma: chroma, limit: 1 << 24))
            try #require(lowest.count > budget, "quality 1 at \(chroma) takes \(lowest.count) bytes")
        }
        let made = try JPEGEncoder.encode(image, budget: budget)
        #expect(made.bytes.count == budget)
        #expect(made.quality == nil)
        let decoded = try JPEGEncoderTests.ffmpegDecode(made.bytes)
        #expect(decoded.count == 3 * width * height)
    }

    /// Noise, a picture no film frame comes near, fits at a quality at every size: at full
    /// colour for uniform noise, at half colour resolution at worst for pixels each 0 or 255.
    /// The mosaic is for hostile pixels only.
    @Test(arguments: sizes)
    func noiseFitsAtAQuality(width: Int, height: Int) throws {
        let budget = JPEGBudget(width: width, height: height, source: .unknown).bytes
        let uniform = try JPEGEncoder.encode(PNGEncoderTests.noise(width, height, seed: 1234))
        #expect(uniform.bytes.count == budget)
        #expect(uniform.quality != nil && uniform.chroma == .full, "\(width)x\(height)")
        let binary = try JPEGEncoder.encode(Self.binaryNoise(width, height, seed: 99))
        #expect(binary.bytes.count == budget)
        #expect(binary.quality != nil, "\(width)x\(height)")
    }

    @Test func paddingSegmentsAddUp() throws {
        for count in [0, 4, 5, 100, 65_536, 65_537, 65_538, 65_539, 65_540, 65_541, 131_074, 131_075, 1_000_000] {
            let lengths = JPEGPadding.segmentLengths(padding: count)
            #expect(lengths.reduce(0, +) == count)
            #expect(lengths.allSatisfy { (JPEGPadding.smallestSegment...JPEGPadding.largestSegment).contains($0) }, "\(count)")
        }
        #expect(!JPEGPadding.canPad(10, to: 13) && JPEGPadding.canPad(10, to: 14) && JPEGPadding.canPad(10, to: 10))
        // Padded to a length just past a whole segment: every segment still parses.
        let small = try #require(try JPEGCompressor.compress(PNGEncoderTests.flat(8, 8, 50), quality: 90, tables: .optimized, limit: 4096))
        let padded = try JPEGPadding.pad(small, to: small.count + 65_538)
        let file = try JPEGSegments(padded)
        #expect(padded.count == small.count + 65_538)
        #expect(file.markers.prefix(3) == [0xE0, 0xFE, 0xFE])
        #expect(try JPEGEncoderTests.ffmpegDecode(padded) == JPEGEncoderTests.ffmpegDecode(small))
    }
}
