import Foundation
import Testing
import TestSupport

/// JPEG beside PNG through a real mount (issue 16): every image name resolves with `.jpg` as well
/// as `.png`, the two show the same frame (PSNR ≥ 35 dB), and a `.jpg`'s size is exact before its
/// first read: `cp`, `rsync` and mmap copy it whole and Python's PIL opens it; `--image-format
/// jpg` lists `.jpg` names.
@Suite(.mounts) struct JPEGTests {
    @Test(.enabled(if: PythonImaging.missing == nil, "Python PIL is not installed (apt-get install python3-pil, or pip install Pillow)"))
    func jpegAndPNGShowTheSameFrameWithExactSizes() throws {
        try LibraryMount.with("jpeg") { library in
            let mount = library.client
            let out = try library.folder.makeFolder("copies")
            for name in ["thumbs/at-12.5s", "thumbs/near-25%@640x360", "thumbs/at-3s@180h", "chapters/01 00h00m00s Opening"] {
                let (jpg, png) = ("feature-1080p.mp4/\(name).jpg", "feature-1080p.mp4/\(name).png")
                let size = try mount.stat(jpg).size  // before any read of it
                expectSuccess(try Command.run(["cp", library.path(jpg), out + "/cp.jpg"]), name)
                expectSuccess(try Command.run(["rsync", library.path(jpg), out + "/rsync.jpg"]), name)
                let mapped = try mount.mapped(jpg)
                #expect(Int64(mapped.count) == size, "\(name): mmap \(mapped.count), stat \(size)")
                for copy in ["cp.jpg", "rsync.jpg"] {
                    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + copy))) == mapped, "\(name): \(copy)")
                }
                // PIL opens both as a viewer would: a baseline JFIF JPEG of the PNG's size and frame.
                let pictures = try PythonImaging.read([library.path(jpg), library.path(png)])
                let (a, b) = (pictures[0], pictures[1])
                #expect(a.format == "JPEG" && !a.progressive && a.jfif, "\(name): \(a.format)")
                #expect(b.format == "PNG" && a.width == b.width && a.height == b.height, "\(name)")
                let quality = Self.psnr(a.rgb, b.rgb)
                #expect((quality * 10).rounded() / 10 >= 35, "\(name): PSNR \(quality) dB")
            }
        }
    }

    /// The peak signal-to-noise ratio of `a` against `b`, in dB (99 when they are equal).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for (x, y) in zip(a, b) { sum += Double((Int(x) - Int(y)) * (Int(x) - Int(y))) }
        let mse = sum / Double(a.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    @Test func theImageFormatOptionListsJPEGs() throws {
        try LibraryMount.with("jpeg-listing", arguments: ["--image-format", "jpg"]) { library in
            let thumbs = try FileManager.default.contentsOfDirectory(atPath: library.path("feature-1080p.mp4/thumbs"))
                .filter { !MediaFolderLayout.isMarker($0) }
            #expect(!thumbs.isEmpty && thumbs.allSatisfy { $0.hasSuffix(".jpg") }, "\(thumbs)")
            let chapters = try FileManager.default.contentsOfDirectory(atPath: library.path("feature-1080p.mp4/chapters"))
            #expect(chapters.filter { $0.hasPrefix("0") }.allSatisfy { $0.hasSuffix(".jpg") }, "\(chapters)")
            // Stored PNG artwork keeps its own extension; a PNG name still resolves.
            var st = stat()
            #expect(stat(library.path("feature-1080p.mp4/thumbs/at-1s.png"), &st) == 0)
        }
    }
}
