import Foundation
import MediaKit
import SystemPackage
import Testing
import TestSupport

/// The colour and HDR fields of the probe (what info.json shows), on the PQ and HLG clips of the
/// test library, an SDR file, and copies of the PQ clip given a Dolby Vision configuration record.
@Suite struct HDRInfoTests {
    let media = LocalMediaService(probeTimeout: 20)

    func video(_ path: String) throws -> MediaInfo.Stream {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber
        return try #require(try media.probe(path: FilePath(path), size: size.int64Value).streams.first { $0.isMovingVideo })
    }

    @Test func pqAndHLG() throws {
        let pq = try video(try TestMedia.file("clips/hdr-pq.mkv").path)
        #expect(pq.colorRange == "tv" && pq.colorSpace == "bt2020nc" && pq.colorPrimaries == "bt2020")
        #expect(pq.colorTransfer == "smpte2084")
        #expect(pq.hdr == .pq && pq.dolbyVision == nil && !pq.isDolbyVisionOnly)
        let hlg = try video(try TestMedia.file("clips/hdr-hlg.mkv").path)
        #expect(hlg.colorRange == "tv" && hlg.colorSpace == "bt2020nc" && hlg.colorPrimaries == "bt2020")
        #expect(hlg.colorTransfer == "arib-std-b67")
        #expect(hlg.hdr == .hlg && hlg.dolbyVision == nil)
    }

    /// SDR: no `hdr`; what the stream says and nothing it does not (x264 untagged leaves all four
    /// unspecified; the 10-bit HEVC clip says limited range and the BT.709 matrix only).
    @Test func sdr() throws {
        let h264 = try video(try TestMedia.file("feature-1080p.mp4").path)
        #expect(h264.hdr == nil && h264.dolbyVision == nil)
        #expect(h264.colorRange == nil && h264.colorSpace == nil && h264.colorTransfer == nil && h264.colorPrimaries == nil)
        let hevc = try video(try TestMedia.file("clips/clip-hevc10.mkv").path)
        #expect(hevc.hdr == nil && hevc.colorRange == "tv" && hevc.colorSpace == "bt709" && hevc.colorTransfer == nil)
    }

    /// Dolby Vision from the stream's configuration record (an MP4 `dvcC` box): profile 5 has no
    /// base layer other players show; profile 8.1 has an HDR10 one.
    @Test func dolbyVision() throws {
        let folder = try TempFolder("dolby-vision")
        defer { folder.remove() }
        let five = try Self.dolbyVisionCopy(in: folder, profile: 5, compatibility: 0)
        let profile5 = try video(five)
        #expect(profile5.hdr == .dolbyVision && profile5.colorTransfer == "smpte2084")
        #expect(profile5.dolbyVision == MediaInfo.DolbyVision(profile: 5, level: 6, rpu: true, el: false, bl: true,
                                                               blCompatibilityId: 0))
        #expect(profile5.dolbyVision?.compatibleBaseLayer == .incompatible && profile5.isDolbyVisionOnly)

        let eight = try Self.dolbyVisionCopy(in: folder, profile: 8, compatibility: 1)
        let profile8 = try video(eight)
        #expect(profile8.hdr == .dolbyVision && profile8.dolbyVision?.compatibleBaseLayer == .hdr10)
        #expect(!profile8.isDolbyVisionOnly)

        // info.json's form (snake case, as MediaTree encodes it).
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = String(decoding: try encoder.encode(profile5), as: UTF8.self)
        #expect(json.contains(#""hdr":"Dolby Vision""#) && json.contains(#""compatible_base_layer":"none""#)
                && json.contains(#""bl_compatibility_id":0"#) && json.contains(#""rpu":true"#) && json.contains(#""el":false"#)
                && json.contains(#""color_transfer":"smpte2084""#), "\(json)")
    }

    /// A probe kept in the cache database before the record's flags were renamed (`rpuPresent`,
    /// …) still decodes, to the same record.
    @Test func dolbyVisionOfAnEarlierProbeDecodes() throws {
        let earlier = #"{"profile":5,"level":6,"rpuPresent":true,"elPresent":false,"blPresent":true,"#
            + #""blSignalCompatibilityId":0,"compatibleBaseLayer":"none"}"#
        let decoded = try JSONDecoder().decode(MediaInfo.DolbyVision.self, from: Data(earlier.utf8))
        #expect(decoded == MediaInfo.DolbyVision(profile: 5, level: 6, rpu: true, el: false, bl: true, blCompatibilityId: 0))
        let now = try JSONDecoder().decode(MediaInfo.DolbyVision.self, from: try JSONEncoder().encode(decoded))
        #expect(now == decoded)
    }

    /// The PQ clip's video copied into MP4 (moov after mdat), with a `dvcC` box (Dolby's ISO base
    /// media format spec, 24 bytes) appended to its `hvc1` sample entry and the sizes of the boxes
    /// around it grown to match. Level 6, RPU and base layer present, no enhancement layer.
    static func dolbyVisionCopy(in folder: TempFolder, profile: Int, compatibility: Int) throws -> String {
        let plain = folder.path("plain-\(profile).mp4"), path = folder.path("dolby-vision-\(profile).mp4")
        let copied = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", try TestMedia.file("clips/hdr-pq.mkv").path,
                                      "-map", "0:v", "-c", "copy", "-tag:v", "hvc1", plain])
        guard copied.succeeded else { throw HarnessError("\(copied)") }
        let box = MP4Boxes.dolbyVisionConfiguration(profile: profile, compatibility: compatibility)
        let data = try MP4Boxes.appending(box, inside: ["moov", "trak", "mdia", "minf", "stbl", "stsd", "hvc1"],
                                          of: Array(try Data(contentsOf: URL(fileURLWithPath: plain))))
        try Data(data).write(to: URL(fileURLWithPath: path))
        return path
    }
}
