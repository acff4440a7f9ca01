import Foundation
import Testing
import TestSupport

/// JPEG beside PNG through a real mount (issue 16): every image name resolves with `.jpg` as well
/// as `.png`, the two show the same frame (PSNR ≥ 35 dB), and a `.jpg`'s size is exact before its
/// first read: `cp`, `rsync` and mmap copy it whole and Python's PIL opens it; `--image-format
/// jpg` lists `.jpg` names.
@Suite(.mounts) struct JPEGTests {
    static let check = #"""
    import math, mmap, os, shutil, subprocess, sys
    from PIL import Image
    film, out = sys.argv[1:3]
    names = ["thumbs/at-12.5s", "thumbs/near-25%@640x360", "thumbs/at-3s@180h", "chapters/01 00h00m00s Opening"]
    for name in names:
        jpg, png = f"{film}/{name}.jpg", f"{film}/{name}.png"
        size = os.stat(jpg).st_size           # before any read of it
        copies = [out + "/cp.jpg", out + "/rsync.jpg"]
        subprocess.run(["cp", jpg, copies[0]], check=True)
        subprocess.run(["rsync", jpg, copies[1]], check=True)
        with open(jpg, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            mapped = bytes(m[:])
        whole = [os.path.getsize(c) == size for c in copies] + [len(mapped) == size]
        same = all(open(c, "rb").read() == mapped for c in copies)
        a, b = Image.open(jpg), Image.open(png)
        a.load(); b.load()
        baseline = a.format == "JPEG" and not a.info.get("progressive") and a.info.get("jfif") is not None
        pa, pb = a.convert("RGB").tobytes(), b.convert("RGB").tobytes()
        mse = sum((x - y) ** 2 for x, y in zip(pa, pb)) / len(pa)
        psnr = 99 if mse == 0 else 10 * math.log10(255 ** 2 / mse)
        print(name, all(whole), same, baseline, a.size == b.size, round(psnr, 1) >= 35, f"{psnr:.1f}")
    """#

    @Test func jpegAndPNGShowTheSameFrameWithExactSizes() throws {
        try LibraryMount.with("jpeg") { library in
            let out = try library.folder.makeFolder("copies")
            let result = try Command.python(Self.check, [library.path("feature-1080p.mp4"), out], timeout: 120)
            expectSuccess(result)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 4, "\(result)")
            for line in lines {
                #expect(line.contains(" True True True True True "), "\(line)")
            }
        }
    }

    @Test func theImageFormatOptionListsJPEGs() throws {
        try LibraryMount.with("jpeg-listing", arguments: ["--image-format", "jpg"]) { library in
            let thumbs = try FileManager.default.contentsOfDirectory(atPath: library.path("feature-1080p.mp4/thumbs"))
                .filter { !MadeFolderNames.isMarker($0) }
            #expect(!thumbs.isEmpty && thumbs.allSatisfy { $0.hasSuffix(".jpg") }, "\(thumbs)")
            let chapters = try FileManager.default.contentsOfDirectory(atPath: library.path("feature-1080p.mp4/chapters"))
            #expect(chapters.filter { $0.hasPrefix("0") }.allSatisfy { $0.hasSuffix(".jpg") }, "\(chapters)")
            // Stored PNG artwork keeps its own extension; a PNG name still resolves.
            var st = stat()
            #expect(stat(library.path("feature-1080p.mp4/thumbs/at-1s.png"), &st) == 0)
        }
    }
}
