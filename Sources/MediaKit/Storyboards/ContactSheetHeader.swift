/// The header of a contact sheet, as lines of text, from the probe: what the file is, at a glance.
///
///     Rome.mkv
///     Duration: 00:10:00   Size: 140.5 MiB (147,312,345 bytes)   Bit rate: 1,964 kb/s
///     Video: h264 (High), 1920x1080, 25 fps
///     Audio: aac 2ch eng, aac 2ch spa
///
/// Always four lines, so the sheet's height depends on the settings and the picture's aspect
/// alone; a line longer than the sheet is cut when drawn. Missing values are left out; a file
/// without audio says `Audio: none`.
public enum ContactSheetHeader {
    /// How many lines `lines` gives.
    public static let lineCount = 4

    /// The lines for `stream` of the file `info` describes, named `fileName`.
    public static func lines(info: MediaInfo, stream: MediaInfo.Stream, fileName: String) -> [String] {
        var second = ["Duration: \(ClockText.clock(seconds: info.container.duration ?? stream.duration ?? 0))",
                      "Size: \(mebibytes(info.container.size)) (\(grouped(info.container.size)) bytes)"]
        if let rate = info.container.bitRate { second.append("Bit rate: \(grouped(rate / 1000)) kb/s") }

        var video = [stream.codec.map { codec in stream.profile.map { "\(codec) (\($0))" } ?? codec } ?? "unknown"]
        if let size = ThumbnailGeometry.displaySize(of: stream) { video.append("\(size.width)x\(size.height)") }
        if let fps = framesPerSecond(displayedRate(stream)) { video.append("\(fps) fps") }

        let audio = info.streams.filter { $0.kind == .audio }.map { a in
            [a.codec ?? "unknown", a.channels.map { "\($0)ch" }, a.language].compactMap { $0 }.joined(separator: " ")
        }
        return [fileName,
                second.joined(separator: "   "),
                "Video: " + video.joined(separator: ", "),
                "Audio: " + (audio.isEmpty ? "none" : audio.joined(separator: ", "))]
    }

    /// The frame rate to show: the stream's base rate (`r_frame_rate`) where its average is within
    /// 0.5% of it (an average over a rounded duration reads 24.996 for 25), else the average (a
    /// variable rate); whichever there is when only one is.
    static func displayedRate(_ stream: MediaInfo.Stream) -> String? {
        func value(_ fraction: String?) -> Double? {
            guard let parts = fraction?.split(separator: "/"), parts.count == 2,
                  let num = Double(parts[0]), let den = Double(parts[1]), num > 0, den > 0 else { return nil }
            return num / den
        }
        guard let base = value(stream.frameRate), let average = value(stream.averageFrameRate) else {
            return stream.averageFrameRate ?? stream.frameRate
        }
        return abs(average - base) <= base * 0.005 ? stream.frameRate : stream.averageFrameRate
    }

    /// `25/1` as `25`, `24000/1001` as `23.976`; nil for nil or a malformed or zero rate.
    static func framesPerSecond(_ fraction: String?) -> String? {
        guard let parts = fraction?.split(separator: "/"), parts.count == 2,
              let num = Int(parts[0]), let den = Int(parts[1]), num > 0, den > 0 else { return nil }
        if num % den == 0 { return String(num / den) }
        let thousandths = (num * 1000 + den / 2) / den
        var text = "\(thousandths / 1000).\(ClockText.padded(thousandths % 1000, 3))"
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Bytes as mebibytes with one decimal: `140.5 MiB`.
    static func mebibytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    /// `147312345` as `147,312,345`.
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + out
    }
}
