import Foundation

/// One cue of a parsed subtitle file: times in milliseconds, the text lines joined by "\n".
public struct ParsedCue: Equatable, Sendable, CustomStringConvertible {
    public var start: Int
    public var end: Int
    public var text: String

    public init(start: Int, end: Int, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }

    public var description: String { "\(start)–\(end) \(text.debugDescription)" }
}

public struct SubtitleParseError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Strict parsers for the SubRip and WebVTT files that extraction writes (and that the ffmpeg
/// command writes): anything out of shape is an error, not skipped.
public enum SubtitleFileParser {
    /// SubRip: blocks of `N` (counting from 1), `HH:MM:SS,mmm --> HH:MM:SS,mmm`, one or more
    /// non-empty text lines, each block ended by a blank line; `\n` line ends; start ≤ end.
    public static func srt(_ content: String) throws -> [ParsedCue] {
        guard !content.contains("\r") else { throw SubtitleParseError("carriage return in SRT") }
        var lines = content.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        var cues: [ParsedCue] = []
        var i = 0
        while i < lines.count {
            guard lines[i] == String(cues.count + 1) else { throw SubtitleParseError("line \(i + 1): expected cue number \(cues.count + 1), got \(lines[i].debugDescription)") }
            guard i + 1 < lines.count, let (start, end) = timing(lines[i + 1], separator: ",") else {
                throw SubtitleParseError("line \(i + 2): bad timing \(i + 1 < lines.count ? lines[i + 1] : "<end>")")
            }
            var text: [String] = []
            i += 2
            while i < lines.count, !lines[i].isEmpty {
                text.append(lines[i])
                i += 1
            }
            guard !text.isEmpty else { throw SubtitleParseError("cue \(cues.count + 1) has no text") }
            guard i < lines.count else { throw SubtitleParseError("cue \(cues.count + 1) is not ended by a blank line") }
            i += 1
            cues.append(ParsedCue(start: start, end: end, text: text.joined(separator: "\n")))
        }
        return cues
    }

    /// WebVTT: `WEBVTT` then a blank line, then cues: an optional identifier line (without `-->`),
    /// `[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm` (hours only when needed, as the ffmpeg command's muxer
    /// writes them), non-empty text lines without `-->`, a blank line (or the end of the file
    /// after the last cue). Start times do not go back. Character references in the text are
    /// decoded (`&amp;` → `&`).
    public static func vtt(_ content: String) throws -> [ParsedCue] {
        guard !content.contains("\r") else { throw SubtitleParseError("carriage return in VTT") }
        var lines = content.components(separatedBy: "\n")
        guard lines.count >= 2, lines[0] == "WEBVTT", lines[1].isEmpty else { throw SubtitleParseError("no WEBVTT header") }
        if lines.last == "" { lines.removeLast() }
        var cues: [ParsedCue] = []
        var i = 2
        while i < lines.count {
            if !lines[i].contains("-->") { i += 1 }  // an identifier
            guard i < lines.count, let (start, end) = timing(lines[i], separator: ".", hoursOptional: true) else {
                throw SubtitleParseError("line \(i + 1): bad timing")
            }
            if let previous = cues.last, start < previous.start { throw SubtitleParseError("line \(i + 1): start goes back") }
            var text: [String] = []
            i += 1
            while i < lines.count, !lines[i].isEmpty {
                guard !lines[i].contains("-->") else { throw SubtitleParseError("line \(i + 1): --> in cue text") }
                text.append(lines[i])
                i += 1
            }
            guard !text.isEmpty else { throw SubtitleParseError("cue \(cues.count + 1) has no text") }
            i += 1
            let joined = text.joined(separator: "\n")
            guard !joined.contains(where: { $0 == "<" }) || joined.range(of: #"<(?!/?[ibu]>)"#, options: .regularExpression) == nil else {
                throw SubtitleParseError("cue \(cues.count + 1): a < that is not a tag")
            }
            cues.append(ParsedCue(start: start, end: end, text: joined
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")))
        }
        return cues
    }

    /// `HH:MM:SS<sep>mmm --> HH:MM:SS<sep>mmm` exactly (`MM:SS<sep>mmm` too when `hoursOptional`),
    /// start ≤ end; milliseconds.
    public static func timing(_ line: String, separator: Character, hoursOptional: Bool = false) -> (Int, Int)? {
        let parts = line.components(separatedBy: " --> ")
        guard parts.count == 2, let start = time(parts[0], separator, hoursOptional: hoursOptional),
              let end = time(parts[1], separator, hoursOptional: hoursOptional), start <= end else { return nil }
        return (start, end)
    }

    public static func time(_ text: String, _ separator: Character, hoursOptional: Bool = false) -> Int? {
        if hoursOptional && text.count == 9 { return time("00:" + text, separator) }
        let chars = Array(text)
        guard chars.count >= 12, chars[chars.count - 4] == separator, chars[chars.count - 7] == ":", chars[chars.count - 10] == ":" else { return nil }
        let hours = String(chars[0..<(chars.count - 10)])
        let minutes = String(chars[(chars.count - 9)..<(chars.count - 7)])
        let seconds = String(chars[(chars.count - 6)..<(chars.count - 4)])
        let millis = String(chars[(chars.count - 3)...])
        guard hours.count >= 2, [hours, minutes, seconds, millis].allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let h = Int(hours), let m = Int(minutes), let s = Int(seconds), let ms = Int(millis), m < 60, s < 60 else { return nil }
        return ((h * 60 + m) * 60 + s) * 1000 + ms
    }
}
