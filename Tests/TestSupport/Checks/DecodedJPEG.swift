import Foundation

extension StoredPNG {
    /// The JPEG `bytes` decoded to RGB by the ffmpeg command, for the readers of a `StoredPNG`
    /// (`region`, `FrameIndexStrip`): a picture made by mediafs read by another decoder.
    /// - Throws: `HarnessError` when ffmpeg cannot decode it or it is not `width` × `height`.
    public init(decodingJPEG bytes: [UInt8], width: Int, height: Int) throws {
        let folder = try TempFolder("decoded-jpeg")
        defer { folder.remove() }
        let (jpeg, raw) = (folder.path("picture.jpg"), folder.path("picture.rgb"))
        try Data(bytes).write(to: URL(fileURLWithPath: jpeg))
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", jpeg, "-f", "rawvideo", "-pix_fmt", "rgb24", raw],
                                     timeout: 60)
        guard result.succeeded else { throw HarnessError("ffmpeg could not decode a JPEG: \(result)") }
        let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        guard rgb.count == 3 * width * height else { throw HarnessError("the JPEG is not \(width)x\(height): \(rgb.count) bytes of RGB") }
        self.init(width: width, height: height, rgb: rgb)
    }

    /// The mean brightness (`brightness`) of the picture, 0…255.
    public var meanBrightness: Double {
        var total = 0
        for y in 0..<height {
            for x in 0..<width { total += brightness(x, y) }
        }
        return Double(total) / Double(width * height)
    }
}
