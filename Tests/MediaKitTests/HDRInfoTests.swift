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
        let inserted = try Command.python(#"""
        import struct, sys
        src, dst, profile, compat = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        data = bytearray(open(src, "rb").read())
        def boxes(start, end):
            while start < end:
                size, kind = struct.unpack(">I4s", data[start:start + 8])
                yield start, size, kind
                start += size
        def find(start, end, path, chain):
            for at, size, kind in boxes(start, end):
                if kind == path[0]:
                    if len(path) == 1:
                        return chain + [at]
                    # stsd: version, flags and entry count before its entries.
                    skip = 16 if kind == b"stsd" else 8
                    return find(at + skip, at + size, path[1:], chain + [at])
            raise SystemExit(f"no {path[0]}")
        top = {kind: at for at, size, kind in boxes(0, len(data))}
        assert top[b"mdat"] < top[b"moov"], "moov must come after mdat"
        chain = find(0, len(data), [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsd", b"hvc1"], [])
        entry = chain[-1]
        entry_end = entry + struct.unpack(">I", data[entry:entry + 4])[0]
        bits = (profile << 9) | (6 << 3) | (1 << 2) | (0 << 1) | 1  # profile, level, rpu, el, bl
        dvcc = struct.pack(">I4sBBHI16x", 32, b"dvcC", 1, 0, bits, compat << 28)
        data[entry_end:entry_end] = dvcc
        for at in chain:
            struct.pack_into(">I", data, at, struct.unpack(">I", data[at:at + 4])[0] + len(dvcc))
        open(dst, "wb").write(data)
        """#, [plain, path, String(profile), String(compatibility)])
        guard inserted.succeeded else { throw HarnessError("\(inserted)") }
        return path
    }
}
