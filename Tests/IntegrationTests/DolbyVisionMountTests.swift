import Foundation
import Testing
import TestSupport

/// Dolby Vision profile 5 through a real mount, on the clip of known content the tests make
/// (`DolbyVisionClip.testClip()`: RPUs with polynomial chroma for its first second, MMR chroma for
/// its second, colour fields unspecified): `info.json` gives the configuration record; each
/// part's thumbnail, read by the ffmpeg command through the mount, is the known picture
/// tone-mapped, far from the green and purple picture of the IPT read as YCbCr; the contact sheet
/// and the storyboard are made (they answered EIO before).
@Suite(.mounts, .enabled(if: DolbyVisionClip.missing == nil, "\(DolbyVisionClip.missing ?? "")"))
struct DolbyVisionMountTests {
    /// As MediaKitTests' `DolbyVisionTests`: the HDR10 clips' tolerance against the ffmpeg chain
    /// (measured 2.2–3.4 per channel on this clip), and at least this far from the IPT read as YCbCr
    /// (measured 69–100).
    static let tolerance = ToneMapReference.tolerance
    static let untreatedDistance = 20.0

    @Test func profile5IsShownRight() throws {
        let folder = try TempFolder("dolby-vision-mount")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let clip = source + "/dv5.mkv"
        try FileManager.default.copyItem(atPath: try DolbyVisionClip.testClip(), toPath: clip)
        let known = try DolbyVisionReference.toneMapped(.test(), peakNits: 1000, width: 320, height: 180)
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log")) { mount in
            let info = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: mount.path("dv5.mkv/info.json"))))
            let video = try #require(((info as? [String: Any])?["streams"] as? [[String: Any]])?.first)
            #expect(video["hdr"] as? String == "Dolby Vision")
            let record = try #require(video["dolby_vision"] as? [String: Any], "\(video)")
            #expect(record["profile"] as? Int == 5 && record["level"] as? Int == 1, "\(record)")
            #expect(record["rpu"] as? Bool == true && record["el"] as? Bool == false && record["bl"] as? Bool == true, "\(record)")
            #expect(record["bl_compatibility_id"] as? Int == 0 && record["compatible_base_layer"] as? String == "none",
                    "\(record)")

            for (time, part) in [(0.5, "polynomial"), (1.5, "MMR")] {
                let thumbnail = try Self.rgb24(mount.path("dv5.mkv/thumbs/at-\(time)s.png"), width: 320, height: 180)
                let near = ColorDistance(thumbnail, known)
                #expect(near.worstChannel <= Self.tolerance, "\(part): \(near)")
                let before = try DolbyVisionReference.readAsYCbCr(clip, at: time, width: 320, height: 180)
                let far = ColorDistance(thumbnail, before)
                #expect(far.mean >= Self.untreatedDistance, "\(part): \(far)")
                print("\(part) at \(time) s through the mount: against the known picture \(near); against the IPT "
                      + "read as YCbCr \(far)")
            }

            let sheets = try FileManager.default.contentsOfDirectory(atPath: mount.path("dv5.mkv/storyboard"))
                .filter { $0.hasSuffix(".jpg") }.map { "dv5.mkv/storyboard/" + $0 }
            #expect(!sheets.isEmpty)
            for name in ["dv5.mkv/contact-sheet.jpg"] + sheets {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mount.path(name))))
                #expect(bytes.starts(with: [0xFF, 0xD8]), "\(name)")
                expectSuccess(try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", mount.path(name), "-f", "null", "-"]),
                              name)
            }
        }
    }

    /// The picture at `path` decoded by the ffmpeg command, as RGB24 of `width` × `height`.
    static func rgb24(_ path: String, width: Int, height: Int) throws -> [UInt8] {
        let out = path.replacingOccurrences(of: "/", with: "_")
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("dv-\(getpid())-\(out).rgb").path
        defer { unlink(target) }
        let decoded = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", path, "-f", "rawvideo",
                                       "-pix_fmt", "rgb24", target])
        guard decoded.succeeded else { throw HarnessError("\(decoded)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: target)))
        guard bytes.count == 3 * width * height else { throw HarnessError("\(path): \(bytes.count) bytes of RGB") }
        return bytes
    }
}
