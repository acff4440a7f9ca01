import MediaKit
import Testing
import TestSupport

@Suite struct DeflateTests {
    @Test func whatDeflatesInflatesToTheSameBytes() throws {
        let png = try PNGEncoder.encode(RGBImage(width: 640, height: 360, pixels: [UInt8](repeating: 90, count: 640 * 360 * 3)))
        let deflated = try #require(Deflate.compress(png))
        #expect(deflated.count * 10 < png.count)
        #expect(try Deflate.decompress(deflated, size: png.count) == png)
        #expect(throws: MediaError.self) { try Deflate.decompress(deflated, size: png.count - 1) }
    }

    /// Bytes that do not deflate (noise, a JPEG's coded data) are kept as they are.
    @Test func noiseIsNotDeflated() {
        var generator = SeededGenerator(seed: 3)
        let noise = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(Deflate.compress(noise) == nil)
        #expect(Deflate.compress([]) == nil)
    }
}
