extension MediaInfo {
    /// The source of pictures taken from `stream`, from the probe alone (the one place a
    /// `PictureSource` is made from a probe). Its bit rate is the stream's own, else the
    /// `BPS` statistics tag mkvmerge writes, else the container's (or the file's size over its
    /// duration) less the other streams' known bit rates; its frame rate the average one, else
    /// the base one. `.unknown` when either is missing or makes no sense.
    public func pictureSource(of stream: Stream) -> PictureSource {
        guard let width = stream.width, let height = stream.height, width > 0, height > 0,
              let rate = Self.framesPerSecond(stream.averageFrameRate) ?? Self.framesPerSecond(stream.frameRate),
              let bits = videoBitRate(of: stream) else { return .unknown }
        let perPixel = Double(bits) / (Double(width) * Double(height) * rate)
        guard perPixel.isFinite, perPixel > 0 else { return .unknown }
        return PictureSource(milliBitsPerPixel: Int(min(perPixel * 1000, 1e6).rounded()))
    }

    /// Bits per second of `stream`'s video, from the stream, its tags or the whole file.
    func videoBitRate(of stream: Stream) -> Int64? {
        if let own = stream.bitRate, own > 0 { return own }
        for key in ["BPS", "BPS-eng"] {
            if let tag = stream.tags[key], let value = Int64(tag), value > 0 { return value }
        }
        var total = container.bitRate
        if total == nil, let duration = container.duration, duration > 0 {
            total = Int64((Double(container.size) * 8 / duration).rounded())
        }
        guard let total else { return nil }
        let others = streams.filter { $0.index != stream.index }.compactMap(\.bitRate).reduce(0, +)
        return total - others > 0 ? total - others : nil
    }

    /// A frame rate written as a fraction (`24000/1001`), if it is between 1 and 1000 a second.
    static func framesPerSecond(_ fraction: String?) -> Double? {
        guard let parts = fraction?.split(separator: "/"), parts.count == 2,
              let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0 else { return nil }
        let rate = numerator / denominator
        return (1...1000).contains(rate) ? rate : nil
    }
}
