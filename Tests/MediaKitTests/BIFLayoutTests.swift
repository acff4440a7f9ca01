@testable import MediaKit
import Testing
import TestSupport

/// The BIF's layout and bytes, read back by `BIFReader`, written in the test from Roku's format.
@Suite struct BIFLayoutTests {
    /// Made-up images: their length and a first byte telling them apart.
    static func images(_ sizes: [Int]) -> [[UInt8]] {
        sizes.enumerated().map { index, size in [UInt8(index & 0xFF)] + [UInt8](repeating: 0xAB, count: size - 1) }
    }

    @Test func headerIndexAndImages() throws {
        let sizes = [100, 250, 3, 4096]
        let layout = try #require(BIFLayout(imageSizes: sizes, intervalMilliseconds: 10_000))
        #expect(layout.indexBytes == 40 && layout.firstImageOffset == 104)
        #expect(layout.fileSize == 104 + 4449)
        #expect(layout.offset(ofImage: 0) == 104 && layout.offset(ofImage: 2) == 454 && layout.offset(ofImage: 4) == layout.fileSize)
        #expect(layout.prefix().count == layout.firstImageOffset)
        let file = try layout.file(images: Self.images(sizes))
        #expect(file.count == layout.fileSize)
        let read = try BIFReader(file)
        #expect(read.version == 0 && read.imageCount == 4 && read.multiplier == 10_000 && read.reservedAllZero)
        #expect(read.dataEnd == file.count)
        #expect(read.frames.map(\.milliseconds) == [0, 10_000, 20_000, 30_000])
        #expect(read.frames.map(\.jpeg) == Self.images(sizes))
    }

    /// A byte's image, for serving a read from the images without the whole file.
    @Test func imageAtByte() throws {
        let layout = try #require(BIFLayout(imageSizes: [10, 20], intervalMilliseconds: 1000))
        #expect(layout.image(atByte: 0) == nil && layout.image(atByte: 87) == nil)
        #expect(layout.image(atByte: 88) == 0 && layout.image(atByte: 97) == 0 && layout.image(atByte: 98) == 1)
        #expect(layout.image(atByte: 117) == 1 && layout.image(atByte: 118) == nil)
    }

    @Test func refusedLayouts() throws {
        #expect(BIFLayout(imageSizes: [], intervalMilliseconds: 10_000) == nil)
        #expect(BIFLayout(imageSizes: [10, 0], intervalMilliseconds: 10_000) == nil)
        #expect(BIFLayout(imageSizes: [10], intervalMilliseconds: 0) == nil)
        #expect(BIFLayout(imageSizes: [10], intervalMilliseconds: 0xFFFF_FFFF) == nil)
        // 80 bytes of header and index: offsets are 32-bit, so the file ends at 0xFFFFFFFF at most.
        #expect(BIFLayout(imageSizes: [Int(UInt32.max) - 79], intervalMilliseconds: 1) == nil)
        #expect(BIFLayout(imageSizes: [Int(UInt32.max) - 80], intervalMilliseconds: 1)?.fileSize == Int(UInt32.max))
        let layout = try #require(BIFLayout(imageSizes: [10, 20], intervalMilliseconds: 1000))
        #expect(throws: MediaError.self) { try layout.file(images: Self.images([10, 21])) }
        #expect(throws: MediaError.self) { try layout.file(images: Self.images([10])) }
    }

    /// A storyboard's frames: one per tile, each the JPEG budget of the tile's size, so the size
    /// is known before any frame is made; real JPEGs of that size read back whole.
    @Test func framesOfAStoryboard() throws {
        let request = StoryboardRequest(streamIndex: 0, duration: 95, interval: 10, tileWidth: 320, tileHeight: 180)
        let storyboard = try #require(StoryboardLayout(request))
        let layout = try #require(BIFLayout(frames: storyboard))
        let frame = storyboard.frameBudget.bytes
        #expect(frame == JPEGBudget(width: 320, height: 180, source: request.source).bytes)
        #expect(layout.imageCount == 10 && layout.intervalMilliseconds == 10_000)
        #expect(layout.fileSize == 64 + 8 * 11 + 10 * frame)
        let jpegs = try (0..<10).map { index in
            try ImageEncoder.encode(RGBImage(width: 320, height: 180, color: (UInt8(index * 20), 90, 200)), format: .jpeg,
                                    budget: storyboard.frameBudget)
        }
        let read = try BIFReader(try layout.file(images: jpegs))
        #expect(read.frames.map(\.milliseconds) == storyboard.tiles(inSheet: 0).map { storyboard.tile($0).startMilliseconds })
        #expect(read.frames.map(\.jpeg) == jpegs)
        #expect(read.frames.allSatisfy { $0.jpeg.prefix(2) == [0xFF, 0xD8] && $0.jpeg.suffix(2) == [0xFF, 0xD9] })
    }
}
