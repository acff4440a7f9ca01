@testable import MediaKit
import Testing

/// The JPEG budget from the probe alone: the source's bits per pixel, the rate they earn, sheets
/// counted tile by tile. (What the budgets reach on real footage is measured by `make bench`,
/// section "real footage".)
@Suite struct JPEGBudgetTests {
    static func video(_ width: Int, _ height: Int, rate: String? = "25/1", average: String? = nil, bitRate: Int64? = nil,
                      tags: [String: String] = [:], index: Int = 0) -> MediaInfo.Stream {
        MediaInfo.Stream(index: index, kind: .video, codec: "h264", codecLongName: nil, profile: nil,
                         width: width, height: height, sampleAspectRatio: nil, displayAspectRatio: nil,
                         pixelFormat: nil, rotation: nil, frameRate: rate, averageFrameRate: average,
                         sampleRate: nil, channels: nil, channelLayout: nil, bitRate: bitRate, startTime: nil,
                         duration: nil, frameCount: nil, language: nil, title: nil, disposition: [], tags: tags)
    }

    static func audio(index: Int, bitRate: Int64?) -> MediaInfo.Stream {
        MediaInfo.Stream(index: index, kind: .audio, codec: "aac", codecLongName: nil, profile: nil,
                         width: nil, height: nil, sampleAspectRatio: nil, displayAspectRatio: nil,
                         pixelFormat: nil, rotation: nil, frameRate: nil, averageFrameRate: nil,
                         sampleRate: 48_000, channels: 2, channelLayout: nil, bitRate: bitRate, startTime: nil,
                         duration: nil, frameCount: nil, language: nil, title: nil, disposition: [], tags: [:])
    }

    static func info(_ streams: [MediaInfo.Stream], bitRate: Int64? = nil, duration: Double? = 10,
                     size: Int64 = 10_000_000) -> MediaInfo {
        MediaInfo(container: .init(format: "matroska,webm", formatLongName: nil, duration: duration, startTime: 0,
                                   bitRate: bitRate, size: size),
                  streams: streams, chapters: [], tags: [:])
    }

    /// bit rate / (width × height × frame rate), from the first source that has it.
    @Test func bitsPerPixelFromTheProbe() {
        // 2 Mbit/s of 1920×1080 at 25 fps: 0.0386 bits a pixel.
        let own = Self.video(1920, 1080, bitRate: 2_000_000)
        #expect(Self.info([own]).pictureSource(of: own).milliBitsPerPixel == 39)
        // The average frame rate wins over the base one.
        let average = Self.video(1920, 1080, rate: "50/1", average: "25/1", bitRate: 2_000_000)
        #expect(Self.info([average]).pictureSource(of: average).milliBitsPerPixel == 39)
        // Matroska: mkvmerge's statistics tag.
        let tagged = Self.video(720, 404, tags: ["BPS": "1514449"])
        #expect(Self.info([tagged]).pictureSource(of: tagged).milliBitsPerPixel == 208)
        // The container's rate less the audio's: 4.8 Mbit/s of 720×405 at 25 fps, 0.66.
        let plain = Self.video(720, 405)
        let withAudio = Self.info([plain, Self.audio(index: 1, bitRate: 192_000)], bitRate: 5_005_000)
        #expect(withAudio.pictureSource(of: plain).milliBitsPerPixel == 660)
        // No rate at all: the file's size over its duration (8 Mbit/s of 640×360 at 25 fps).
        let small = Self.video(640, 360)
        #expect(Self.info([small], duration: 10, size: 10_000_000).pictureSource(of: small).milliBitsPerPixel == 1389)
    }

    @Test func anUnknownSourceHasNoBitsPerPixel() {
        for (stream, info) in [
            (Self.video(640, 360, rate: nil, bitRate: 1_000_000), nil),
            (Self.video(640, 360, rate: "0/0", bitRate: 1_000_000), nil),
            (Self.video(640, 360, rate: "90000/1", bitRate: 1_000_000), nil),
            (Self.video(640, 360), Self.info([Self.video(640, 360)], duration: nil)),
            // Audio that takes the container's whole rate leaves no video rate.
            (Self.video(640, 360), Self.info([Self.video(640, 360), Self.audio(index: 1, bitRate: 800_000)], bitRate: 800_000)),
        ] as [(MediaInfo.Stream, MediaInfo?)] {
            #expect((info ?? Self.info([stream])).pictureSource(of: stream) == .unknown)
        }
    }

    /// ⌊√(150 × milliBitsPerPixel)⌋ within 150…250.
    @Test func theRateFollowsTheSource() {
        let rates = [nil, 0, 10, 39, 150, 185, 290, 416, 417, 660, 3_500, 1_000_000, Int.max]
            .map { JPEGBudget.rate(PictureSource(milliBitsPerPixel: $0)) }
        #expect(rates == [150, 150, 150, 150, 150, 166, 208, 249, 250, 250, 250, 250, 250])
    }

    @Test func onePicture() {
        // 320×180: 40 × 23 = 920 blocks, 166 units.
        #expect(JPEGBudget(width: 320, height: 180, source: .unknown).bytes == 640 + 150 * 166)
        #expect(JPEGBudget(width: 320, height: 180, source: PictureSource(milliBitsPerPixel: 290)).bytes == 640 + 208 * 166)
        // The smallest still holds the mosaic and a padding segment.
        let tiny = JPEGBudget(width: 1, height: 1, source: .unknown)
        #expect(tiny.bytes == 640 + 150 && tiny.bytes >= JPEGMosaic.bound(width: 1, height: 1) + 4)
    }

    /// A sheet counts each tile as a picture, and 12 bytes per block of what is not a tile.
    @Test func sheetsCountTheirTiles() {
        let source = PictureSource(milliBitsPerPixel: 185)
        // A full storyboard sheet: 100 tiles of 320×180 and nothing else.
        let full = JPEGBudget(width: 3200, height: 1800, tiles: 100, tileWidth: 320, tileHeight: 180, source: source)
        #expect(full.bytes == 640 + 100 * 166 * 166)
        // A last sheet of 3 tiles on a row of 10: the 7 black places count as rest.
        let last = JPEGBudget(width: 3200, height: 180, tiles: 3, tileWidth: 320, tileHeight: 180, source: source)
        #expect(last.bytes == 640 + 3 * 166 * 166 + 12 * 7 * 920)
        // More than one picture's worth, less than tiles of the sheet's whole area at one rate.
        #expect(full.bytes > 90 * JPEGBudget(width: 320, height: 180, source: source).bytes)
    }
}
