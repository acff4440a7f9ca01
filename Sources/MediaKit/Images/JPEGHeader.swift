/// What a JPEG file says about itself before any pixel is decoded.
public enum JPEGHeader {
    /// The picture's width and height from its start-of-frame (SOF) marker, read by walking the
    /// marker segments from the start of image; nil where `bytes` is not a JPEG, the frame header
    /// is missing or cut, or it gives no height (a DNL marker later would give it).
    ///
    /// Cheap: no decoding, only the segment headers before the first SOF are read. The tree uses
    /// it to know the exact size of the PNG a JPEG becomes (`PNGEncoder.encodedSize`) at `stat`.
    public static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 1 < bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker.
            var at = position + 1
            while at < bytes.count && bytes[at] == 0xFF { at += 1 }
            guard at < bytes.count else { return nil }
            let marker = bytes[at]
            position = at + 1
            switch marker {
            case 0xD8, 0x01, 0xD0...0xD7:
                continue  // segments without a length
            case 0xD9, 0xDA:
                return nil  // end of image, or scan data before any frame header
            default:
                break
            }
            guard position + 1 < bytes.count else { return nil }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2 else { return nil }
            if isStartOfFrame(marker) {
                // Length (2), precision (1), height (2), width (2).
                guard length >= 7, position + 6 < bytes.count else { return nil }
                let height = Int(bytes[position + 3]) << 8 | Int(bytes[position + 4])
                let width = Int(bytes[position + 5]) << 8 | Int(bytes[position + 6])
                guard width > 0, height > 0 else { return nil }
                return (width, height)
            }
            position += length
        }
        return nil
    }

    /// SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
