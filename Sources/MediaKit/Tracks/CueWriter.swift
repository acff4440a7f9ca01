/// Writes subtitle cues as a SubRip (`.srt`) or WebVTT (`.vtt`) file, as they come.
///
/// SubRip: `N`, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, the text, a blank line; numbered from 1.
/// WebVTT: a `WEBVTT` line and a blank line, then `HH:MM:SS.mmm --> HH:MM:SS.mmm`, the text, a blank line.
final class CueWriter {
    enum Format {
        case srt, webvtt
    }

    let format: Format
    private let dialect: ASSText.Dialect
    private let output: BufferedFileWriter
    /// Cues written so far.
    private(set) var count = 0

    /// - Parameter dialect: `.script` for events of an ASS/SSA stream, `.decoded` for the others.
    /// - Throws: `MediaError.output`.
    init(format: Format, dialect: ASSText.Dialect, path: String) throws {
        self.format = format
        self.dialect = dialect
        output = try BufferedFileWriter(path: path)
        if format == .webvtt { try output.write("WEBVTT\n\n") }
    }

    /// Writes one cue from `start` to `end` (milliseconds from the start of the file) showing the
    /// text of `events` (decoded ASS event lines), one under the other. Nothing is written when no
    /// visible text is left.
    /// - Throws: `MediaError.output`.
    func write(start: Int64, end: Int64, events: [String]) throws {
        let flavor: ASSText.Flavor = format == .srt ? .srt : .webvtt
        let texts = events.compactMap { ASSText.cueText(ASSText.textField(ofEvent: $0), flavor: flavor, dialect: dialect) }
        guard !texts.isEmpty else { return }
        count += 1
        let text = texts.joined(separator: "\n")
        switch format {
        case .srt:
            try output.write("\(count)\n\(CueTime.text(start, separator: ",")) --> \(CueTime.text(end, separator: ","))\n\(text)\n\n")
        case .webvtt:
            try output.write("\(CueTime.text(start, separator: ".")) --> \(CueTime.text(end, separator: "."))\n\(text)\n\n")
        }
    }

    /// Flushes and closes the file. - Throws: `MediaError.output`.
    func close() throws {
        try output.close()
    }
}

/// Cue times as SubRip and WebVTT write them.
enum CueTime {
    /// `HH:MM:SS<separator>mmm` for `milliseconds` (negative counts as 0); hours grow past two
    /// digits when they must.
    static func text(_ milliseconds: Int64, separator: Character) -> String {
        let ms = max(0, milliseconds)
        let hours = ms / 3_600_000, minutes = ms / 60_000 % 60, seconds = ms / 1000 % 60, millis = ms % 1000
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2))\(separator)\(pad(millis, 3))"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
