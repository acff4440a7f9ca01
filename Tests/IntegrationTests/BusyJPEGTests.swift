import Foundation
import Testing
import TestSupport

/// JPEG quality on a busy picture through a real mount (issue 26): a clip of heavy grain made at
/// test time, whose frames the budget of the picture's size alone squeezed to libjpeg quality
/// 66 (thumbnails), 66 (storyboard sheet) and 36 (contact sheet). The budget follows what the
/// probe tells of the source (its bits per pixel), so every listed thumbnail, the contact sheet
/// and the storyboard sheet reach quality 80 at least; every file is read whole in exactly the
/// bytes `stat` gave before the read.
@Suite(.mounts) struct BusyJPEGTests {
    /// 6 s of testsrc2 at 640×360 under noise that changes every frame, as libx264 keeps it.
    static func makeGrainyClip(_ path: String) throws {
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=6",
            "-vf", "noise=alls=40:allf=t", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
            "-g", "25", path,
        ], timeout: 120), "ffmpeg \(path)")
    }

    @Test func busyPicturesKeepTheirQuality() throws {
        let folder = try TempFolder("busy-jpeg")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try Self.makeGrainyClip(source + "/grain.mp4")
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"),
                       arguments: ["--image-format", "jpg", "--storyboard-interval", "2"]) { mount in
            let film = mount.path("grain.mp4")
            let thumbs = try FileManager.default.contentsOfDirectory(atPath: film + "/thumbs").filter { !MediaFolderLayout.isMarker($0) }.sorted()
            #expect(thumbs.count >= 6 && thumbs.allSatisfy { $0.hasSuffix(".jpg") }, "\(thumbs)")
            for name in thumbs.map({ "thumbs/" + $0 }) + ["contact-sheet.jpg", "storyboard/0001.jpg"] {
                let path = film + "/" + name
                let announced = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
                let bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init), "\(name)")
                #expect(bytes.count == announced, "\(name): stat gave \(announced) bytes, a read \(bytes.count)")
                let quality = try #require(LibjpegQuality.estimate(bytes), "\(name) has no luminance table")
                #expect(quality >= 80, "\(name): libjpeg quality \(quality)")
            }
        }
    }
}

/// The libjpeg quality a JPEG was written at, from its luminance quantization table: the quality
/// whose standard (IJG, JPEG Annex K) table, scaled as libjpeg's `jpeg_set_quality` scales it, is
/// nearest (as bench/sections/pictures.py estimates it).
enum LibjpegQuality {
    static let luminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]
    /// The natural index of each coefficient in the zigzag order a DQT segment stores.
    static let zigzag: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,
        7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31,
        39, 46, 53, 60, 61, 54, 47, 55, 62, 63]

    static func scaled(_ quality: Int) -> [Int] {
        let scale = quality < 50 ? 5000 / quality : 200 - quality * 2
        return luminance.map { min(255, max(1, ($0 * scale + 50) / 100)) }
    }

    /// The quality, or nil for bytes without an 8-bit table 0 before the first scan.
    static func estimate(_ jpeg: [UInt8]) -> Int? {
        guard let table = luminanceTable(jpeg) else { return nil }
        func distance(_ quality: Int) -> Int { zip(table, scaled(quality)).map { abs($0 - $1) }.reduce(0, +) }
        return (1...100).min { (distance($0), -$0) < (distance($1), -$1) }
    }

    /// Table 0 of the first DQT segments, in natural order.
    static func luminanceTable(_ jpeg: [UInt8]) -> [Int]? {
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1], length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            if marker == 0xDA { return nil }
            if marker == 0xDB {
                var entry = at + 4
                while entry < at + 2 + length, entry + 65 <= jpeg.count {
                    let precision = jpeg[entry] >> 4, id = jpeg[entry] & 15
                    if precision == 0, id == 0 {
                        var natural = [Int](repeating: 0, count: 64)
                        for k in 0..<64 { natural[zigzag[k]] = Int(jpeg[entry + 1 + k]) }
                        return natural
                    }
                    entry += 1 + 64 * (precision == 0 ? 1 : 2)
                }
            }
            at += 2 + length
        }
        return nil
    }
}
