import Foundation
import Glibc

/// Python's PIL (Pillow), a decoder independent of FFmpeg and libjpeg's own tools, where it is
/// installed (Debian `python3-pil`, or `pip install Pillow`): the first of `python3` on PATH and
/// the system's `/usr/bin/python3` that imports it.
public enum PythonImaging {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    public static let python: String? = ["python3", "/usr/bin/python3"].first { candidate in
        (try? Command.run([candidate, "-c", "import PIL"], timeout: 30).succeeded) == true
    }

    /// Why tests that need PIL are skipped, or nil when it is there.
    public static var missing: String? {
        python == nil ? "Python PIL is not installed (apt-get install python3-pil, or pip install Pillow)" : nil
    }

    /// What PIL reads of a picture.
    public struct Picture: Sendable {
        /// PIL's name of the format (`JPEG`, `PNG`) and mode (`RGB`, `L`, …).
        public var format: String
        public var mode: String
        public var width: Int
        public var height: Int
        /// The pixels converted to RGB, rows of `3 * width` bytes.
        public var rgb: [UInt8]
        /// For a JPEG: whether it is progressive, and whether it has a JFIF header.
        public var progressive: Bool
        public var jfif: Bool

        /// The pixels as a `StoredPNG` value, for `FrameIndexStrip` and the other readers of one.
        public var picture: StoredPNG { StoredPNG(width: width, height: height, rgb: rgb) }
    }

    /// What PIL reads from `file`, via `Image.open(...).load()` (a full decode).
    public static func read(_ file: URL) throws -> Picture {
        try read([file.path])[0]
    }

    /// What PIL reads from each of `paths`, in one Python process.
    public static func read(_ paths: [String]) throws -> [Picture] {
        guard let python else { throw Failed(description: missing!) }
        let pixels = try Command.scratchFile("pil")
        defer { unlink(pixels) }
        let script = """
            import sys
            from PIL import Image
            out = open(sys.argv[1], "wb")
            for path in sys.argv[2:]:
                image = Image.open(path); image.load()
                out.write(image.convert("RGB").tobytes())
                print(image.format, image.mode, image.size[0], image.size[1],
                      int(bool(image.info.get("progressive"))), int("jfif" in image.info))
            """
        let result = try Command.run([python, "-c", script, pixels] + paths, timeout: 60 + 10 * Double(paths.count))
        guard result.succeeded else { throw Failed(description: "PIL could not read \(paths): \(result)") }
        let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pixels)))
        var offset = 0
        return try result.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 6, let width = Int(fields[2]), let height = Int(fields[3]),
                  offset + 3 * width * height <= rgb.count else { throw Failed(description: "PIL said \(result.stdout)") }
            defer { offset += 3 * width * height }
            return Picture(format: fields[0], mode: fields[1], width: width, height: height,
                           rgb: Array(rgb[offset ..< offset + 3 * width * height]), progressive: fields[4] == "1", jfif: fields[5] == "1")
        }
    }
}
