import CJPEG

/// One libjpeg compression of an RGB picture, as it comes: no search, no padding. The
/// corresponding C function is `cjpeg_write_rgb24`, which owns every libjpeg resource for the
/// length of the call and frees it before returning.
enum JPEGCompressor {
    /// Huffman tables: made for the picture (smaller files, two passes, the whole picture's
    /// coefficients in memory) or the standard ones of the JPEG specification (Annex K.3).
    enum Tables {
        case optimized
        case standard
    }

    /// `image` as a baseline JFIF file at libjpeg `quality` (1–100), or nil when it would be longer
    /// than `limit` bytes (libjpeg stops as soon as it passes the limit).
    /// - Throws: `MediaError.imageFailed` with libjpeg's message.
    static func compress(_ image: RGBImage, quality: Int, tables: Tables, chroma: JPEGEncoder.Chroma = .full, limit: Int) throws -> [UInt8]? {
        precondition((1...100).contains(quality) && limit >= 0)
        var message = [CChar](repeating: 0, count: 256)
        var written = 0
        var status: Int32 = 0
        let bytes = try image.pixels.withUnsafeBufferPointer { pixels -> [UInt8] in
            guard let base = pixels.baseAddress else { throw MediaError.imageFailed(reason: "no pixels") }
            return [UInt8](unsafeUninitializedCapacity: max(limit, 1)) { out, count in
                status = cjpeg_write_rgb24(base, UInt32(image.width), UInt32(image.height), image.stride,
                                           Int32(quality), tables == .optimized ? 1 : 0, chroma == .halved ? 1 : 0,
                                           out.baseAddress, limit, &written, &message, message.count)
                count = status == Int32(CJPEG_WRITTEN) ? written : 0
            }
        }
        switch status {
        case Int32(CJPEG_WRITTEN): return bytes
        case Int32(CJPEG_TOO_LONG): return nil
        default:
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw MediaError.imageFailed(reason: "libjpeg: \(text)")
        }
    }

    /// The libjpeg-turbo version linked in, e.g. 2001005 for 2.1.5.
    static var libjpegTurboVersion: Int { Int(cjpeg_libjpeg_turbo_version()) }
}
