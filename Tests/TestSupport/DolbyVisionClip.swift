import Foundation

/// A Dolby Vision profile 5 clip of known content, made at test time: a PQ BT.2020 picture
/// (`Picture.test`), turned into IPT (`DolbyVisionModel`), into base layer codes by the inverse
/// of each RPU's reshaping curves, encoded by libx265 (`dolby-vision-profile=5`, lossless, no
/// B-frames, colour fields left unspecified as profile 5 streams leave them), an RPU NAL unit
/// appended to each access unit of the raw HEVC stream (`HEVCAccessUnits`), and muxed by
/// mkvmerge, which writes the Dolby Vision configuration record.
public enum DolbyVisionClip {
    /// A picture as PQ-coded BT.2020 R'G'B', full range: `values` row by row, three per pixel, 0 to 1.
    public struct Picture: Sendable {
        public let width: Int
        public let height: Int
        public let values: [Double]

        public init(width: Int, height: Int, values: [Double]) {
            precondition(values.count == 3 * width * height, "three values a pixel")
            self.width = width
            self.height = height
            self.values = values
        }

        /// An SDR BT.709 picture (`rgb48le` bytes, BT.1886: a 2.4 power) as PQ BT.2020, its white
        /// at `whiteNits` (BT.2408 puts SDR white at 203 cd/m²).
        public static func fromSDR(rgb48 bytes: [UInt8], width: Int, height: Int, whiteNits: Double = 203) -> Picture {
            // BT.709 to BT.2020 primaries (BT.2087), linear light.
            let m = [0.6274, 0.3293, 0.0433, 0.0691, 0.9195, 0.0114, 0.0164, 0.0880, 0.8956]
            var values = [Double](repeating: 0, count: 3 * width * height)
            for i in 0..<(width * height) {
                let rgb = (0..<3).map { c in
                    pow(Double(UInt16(bytes[6 * i + 2 * c]) | UInt16(bytes[6 * i + 2 * c + 1]) << 8) / 65535, 2.4)
                        * whiteNits / 10_000
                }
                for r in 0..<3 {
                    values[3 * i + r] = DolbyVisionModel.signal(m[3 * r] * rgb[0] + m[3 * r + 1] * rgb[1] + m[3 * r + 2] * rgb[2])
                }
            }
            return Picture(width: width, height: height, values: values)
        }

        /// Patches of sixteen colours (two rows of eight, from about 5 to 1,000 cd/m²), a grey
        /// ramp from black to 0.8 (about 1,500 cd/m²) and a sweep of hues at about 100 cd/m²; edges
        /// on multiples of 8 pixels.
        public static func test(width: Int = 640, height: Int = 360) -> Picture {
            let patches: [[Double]] = [
                [0.6, 0.3, 0.3], [0.3, 0.6, 0.3], [0.3, 0.3, 0.6], [0.6, 0.6, 0.3],
                [0.3, 0.6, 0.6], [0.6, 0.3, 0.6], [0.5, 0.5, 0.5], [0.72, 0.72, 0.72],
                [0.45, 0.2, 0.15], [0.2, 0.45, 0.15], [0.15, 0.2, 0.45], [0.7, 0.5, 0.2],
                [0.2, 0.55, 0.7], [0.65, 0.2, 0.5], [0.25, 0.25, 0.25], [0.68, 0.62, 0.5],
            ]
            let band = height / 3 / 8 * 8, column = width / 8 / 8 * 8
            var values = [Double](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let f = Double(x) / Double(width - 1)
                    let pixel: [Double]
                    if y < 2 * band {
                        pixel = patches[min(y / band, 1) * 8 + min(x / column, 7)]
                    } else if y < 2 * band + (height - 2 * band) / 2 {
                        pixel = [0.8 * f, 0.8 * f, 0.8 * f]
                    } else {
                        let h = 2 * Double.pi * f
                        pixel = [0.5 + 0.15 * cos(h), 0.5 + 0.15 * cos(h - 2 * .pi / 3), 0.5 + 0.15 * cos(h + 2 * .pi / 3)]
                    }
                    values.replaceSubrange((3 * (y * width + x))..<(3 * (y * width + x) + 3), with: pixel)
                }
            }
            return Picture(width: width, height: height, values: values)
        }

        /// The picture as `gbrp16le` (planes G, B, R), for the ffmpeg command.
        public func planarRGB16() -> Data {
            var data = Data(capacity: width * height * 6)
            for channel in [1, 2, 0] {
                for i in 0..<(width * height) {
                    let v = UInt16((min(max(values[3 * i + channel], 0), 1) * 65535).rounded())
                    data.append(UInt8(v & 0xFF))
                    data.append(UInt8(v >> 8))
                }
            }
            return data
        }
    }

    /// Reshaping curves for the tests, not the identity: luma a polynomial in two pieces
    /// (0.8x + 0.25x² below code 409, then a line up to 1); chroma either polynomials (lines)
    /// or MMR of order 1 (P, with a luma term and a luma × P product) and 3 (T, with T², T³ and
    /// luma × T). Each rises with the component's own value, so that `DolbyVisionModel.code`
    /// finds the base layer codes.
    public static let polynomialRPU = DolbyVisionRPU(curves: [
        lumaCurve,
        .init(pivots: [0, 1023], pieces: [.polynomial([-0.04, 1.08])]),
        .init(pivots: [0, 1023], pieces: [.polynomial([0.06, 0.88])]),
    ])
    public static let mmrRPU = DolbyVisionRPU(curves: [
        lumaCurve,
        .init(pivots: [0, 1023], pieces: [.mmr(constant: -0.05, orders: [[0.1, 0.9, 0, 0.2, 0, 0, 0]])]),
        .init(pivots: [0, 1023], pieces: [.mmr(constant: 0.04, orders: [[-0.06, 0, 0.8, 0, 0.1, 0, 0],
                                                                        [0, 0, 0.15, 0, 0, 0, 0],
                                                                        [0, 0, 0.05, 0, 0, 0, 0]])]),
    ])
    static let lumaCurve: DolbyVisionRPU.Curve = {
        let p = 409.0 / 1023, knee = 0.8 * p + 0.25 * p * p, slope = (1 - knee) / (1 - p)
        return .init(pivots: [0, 409, 1023], pieces: [.polynomial([0, 0.8, 0.25]), .polynomial([knee - slope * p, slope])])
    }()

    /// The tests' clip: `Picture.test()`, 640×360, 10 frames coded for `polynomialRPU` then 10
    /// for `mmrRPU`, 10 fps, keyframes at 0 and 1 s. Made the first time a test asks for it and
    /// kept in `.build/test-media/dolby-vision` for later runs.
    /// - Throws: `HarnessError` when it cannot be made (`missing` says why, where a tool is missing).
    public static func testClip() throws -> String {
        try made.get()
    }

    /// The part of `testClip()` each RPU's frames fill, in seconds: polynomial chroma before 1 s,
    /// MMR chroma from 1 s.
    public static let partSeconds = 1.0
    /// Bump to make the kept clip again after a change to how it is made.
    static let version = 1
    private static let made = Result { () throws -> String in
        if let missing { throw HarnessError(missing) }
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/dolby-vision").path
        let path = folder + "/profile5-v\(version).mkv"
        if FileManager.default.fileExists(atPath: path) { return path }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let partial = folder + "/profile5-v\(version).partial.mkv"
        try make(.test(), parts: [(polynomialRPU, 10), (mmrRPU, 10)], at: partial)
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    /// Why such a clip cannot be made here (no libx265 in the ffmpeg command, no mkvmerge), or nil.
    public static let missing: String? = {
        guard let encoders = try? Command.run(["ffmpeg", "-hide_banner", "-encoders"]), encoders.succeeded,
              encoders.stdout.contains("libx265") else { return "the ffmpeg command has no libx265 encoder" }
        guard (try? Command.run(["mkvmerge", "--version"]))?.succeeded == true else {
            return "mkvmerge is not installed (apt-get install mkvtoolnix)"
        }
        return nil
    }()

    /// Makes `path` (Matroska): for each `(rpu, frames)` in turn, `frames` frames of `picture`
    /// coded for that RPU, at `fps` frames a second, a keyframe at the start of each part.
    /// - Throws: `HarnessError` when a command fails.
    public static func make(_ picture: Picture, parts: [(rpu: DolbyVisionRPU, frames: Int)], fps: Int = 10,
                            at path: String) throws {
        let raw = path + ".yuv", hevc = path + ".hevc", withRPU = path + ".dv.hevc"
        defer { for file in [raw, hevc, withRPU] { unlink(file) } }
        var video = Data()
        for part in parts {
            let frame = baseLayer(picture, part.rpu)
            for _ in 0..<part.frames { video.append(frame) }
        }
        try video.write(to: URL(fileURLWithPath: raw))
        let gop = parts.first?.frames ?? fps
        let encode = try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p10le",
            "-s", "\(picture.width)x\(picture.height)", "-r", String(fps), "-i", raw, "-c:v", "libx265",
            "-x265-params", "dolby-vision-profile=5:lossless=1:vbv-bufsize=20000:vbv-maxrate=20000:bframes=0:"
                + "keyint=\(gop):min-keyint=\(gop):scenecut=0:log-level=error",
            "-color_range", "pc", "-f", "hevc", hevc,
        ], timeout: 120)
        guard encode.succeeded else { throw HarnessError("libx265 failed: \(encode)") }
        let rpus = parts.flatMap { Array(repeating: $0.rpu, count: $0.frames) }
        let stream = try [UInt8](Data(contentsOf: URL(fileURLWithPath: hevc)))
        let (out, units) = HEVCAccessUnits.appending(to: stream) { rpus[min($0, rpus.count - 1)].nalUnit() }
        guard units == rpus.count else { throw HarnessError("\(units) access units for \(rpus.count) frames") }
        try Data(out).write(to: URL(fileURLWithPath: withRPU))
        let mux = try Command.run(["mkvmerge", "-q", "-o", path, "--default-duration", "0:\(fps)fps", withRPU], timeout: 60)
        guard mux.succeeded || mux.exitCode == 1 else { throw HarnessError("mkvmerge failed: \(mux)") }  // 1: warnings
    }

    /// `yuv420p10le` of `picture` for `rpu`: each pixel's IPT, its base layer codes by the inverse
    /// of the curves (luma per pixel; chroma per 2×2 block, from the block's mean IPT and mean luma
    /// code, as the decoder's chroma is shared by the block).
    static func baseLayer(_ picture: Picture, _ rpu: DolbyVisionRPU) -> Data {
        let w = picture.width, h = picture.height
        var ipt = [Double](repeating: 0, count: w * h * 3), luma = [Int](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            let v = DolbyVisionModel.ipt(rgb: Array(picture.values[(3 * i)..<(3 * i + 3)]), rpu)
            ipt.replaceSubrange((3 * i)..<(3 * i + 3), with: v)
            luma[i] = DolbyVisionModel.code(for: v[0], own: 0, [0, 0.5, 0.5], rpu)
        }
        var data = Data(capacity: w * h * 3)
        func append(_ code: Int) {
            data.append(UInt8(code & 0xFF))
            data.append(UInt8(code >> 8))
        }
        luma.forEach(append)
        var chroma: [[Int]] = [[], []]
        for y in stride(from: 0, to: h, by: 2) {
            for x in stride(from: 0, to: w, by: 2) {
                let block = [y * w + x, y * w + x + 1, (y + 1) * w + x, (y + 1) * w + x + 1]
                let s0 = Double(block.reduce(0) { $0 + luma[$1] }) / 4 / 1023
                for c in 1...2 {
                    let target = block.reduce(0) { $0 + ipt[3 * $1 + c] } / 4
                    chroma[c - 1].append(DolbyVisionModel.code(for: target, own: c, [s0, 0.5, 0.5], rpu))
                }
            }
        }
        chroma.joined().forEach(append)
        return data
    }
}
