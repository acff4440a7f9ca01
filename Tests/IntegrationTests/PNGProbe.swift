import TestSupport

/// Python that reads PNGs the mount made and the frame index each shows (the fixtures' 16-cell
/// strip in the bottom 1/16 of every frame, most significant bit on the left; see
/// scripts/make-media.sh). Standard library only: zlib inflates any PNG; filters are undone here.
enum PNGProbe {
    /// Defines `png(path) -> (width, height, rows)` (rows of RGB bytes) and `frame_index(path)`.
    static let library = #"""
    import struct, zlib

    def png(path):
        data = open(path, "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
        pos, idat, width = 8, b"", None
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
            assert zlib.crc32(kind + body) == crc, f"{path}: bad CRC in {kind}"
            if kind == b"IHDR":
                width, height, depth, color = struct.unpack(">IIBB", body[:10])
                assert depth == 8 and color == 2, f"{path}: not 8-bit RGB"
            elif kind == b"IDAT":
                idat += body
            elif kind == b"IEND":
                assert pos + 12 + length == len(data), f"{path}: bytes after IEND"
                break
            pos += 12 + length
        raw = zlib.decompress(idat)
        stride = width * 3
        assert len(raw) == height * (stride + 1), f"{path}: {len(raw)} bytes of pixels for {width}x{height}"
        rows, previous = [], bytearray(stride)
        for y in range(height):
            kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - 3] if i >= 3 else 0
                b = previous[i]
                c = previous[i - 3] if i >= 3 else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            previous = line
        return width, height, rows

    def frame_index(path):
        width, height, rows = png(path)
        y = height - max(1, height // 32)
        value = 0
        for cell in range(16):
            x = int((cell + 0.5) * width / 16)
            r, g, b = rows[y][3 * x:3 * x + 3]
            value = value * 2 + (1 if (r + g + b) / 3 > 128 else 0)
        return value
    """#

    /// Runs `script` with the library above defined.
    static func run(_ script: String, _ arguments: [String], timeout: Double = 120) throws -> CommandResult {
        try Command.python(library + "\n" + script, arguments, timeout: timeout)
    }
}
