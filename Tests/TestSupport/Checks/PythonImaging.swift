import Foundation

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

    /// What PIL reads from `file`: its format, mode, size, and the RGB pixels' bytes, via
    /// `Image.open(...).load()` (a full decode).
    public static func read(_ file: URL) throws -> (format: String, mode: String, width: Int, height: Int, rgb: [UInt8]) {
        guard let python else { throw Failed(description: missing!) }
        let rgbFile = file.appendingPathExtension("rgb")
        defer { try? FileManager.default.removeItem(at: rgbFile) }
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]); image.load()
            open(sys.argv[2], "wb").write(image.convert("RGB").tobytes())
            print(image.format, image.mode, image.size[0], image.size[1])
            """
        let result = try Command.run([python, "-c", script, file.path, rgbFile.path], timeout: 60)
        guard result.succeeded else { throw Failed(description: "PIL could not read \(file.path): \(result)") }
        let fields = result.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count == 4, let width = Int(fields[2]), let height = Int(fields[3]) else {
            throw Failed(description: "PIL said \(result.stdout)")
        }
        return (fields[0], fields[1], width, height, try [UInt8](Data(contentsOf: rgbFile)))
    }
}
