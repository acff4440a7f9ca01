import Foundation
import TestSupport

/// Test files for the tracks/ tests, and the strict reading of subtitle files they check.
enum TrackChecks {
    /// Adds to a copy of the library: a video without audio or subtitles, a file with two video
    /// streams (angles), and the first 5% of the MKV (cut before its first subtitle).
    @Sendable static func addTestFiles(_ source: String) throws {
        let holiday = source + "/clips/Holiday Café 2021.mp4"
        let made = [
            try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", holiday, "-map", "0:v", "-c", "copy",
                             source + "/clips/silent.mp4"]),
            try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", source + "/feature-1080p.mp4",
                             "-i", source + "/clips/clip-vp9.webm", "-map", "0:v", "-map", "1:v", "-map", "0:a:0",
                             "-c", "copy", source + "/clips/angles.mkv"]),
            try Command.shell(#"head -c $(( $(stat -c %s "$1") * 5 / 100 )) "$1" > "$2""#,
                              [source + "/movie-1080p.mkv", source + "/broken/movie-cut.mkv"]),
        ]
        for result in made where !result.succeeded { throw HarnessError("making a test file: \(result)") }
    }

    /// The cues of a SubRip file read strictly (`SubtitleFileParser.srt`), in time order.
    static func srt(_ bytes: [UInt8], _ what: String) throws -> [ParsedCue] {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw HarnessError("\(what): not UTF-8") }
        let cues = try SubtitleFileParser.srt(text)
        guard zip(cues, cues.dropFirst()).allSatisfy({ $0.start <= $1.start }) else { throw HarnessError("\(what): cues out of order") }
        return cues
    }

    /// The cues of a WebVTT file as mediafs (and the ffmpeg command) writes it: the header, a blank
    /// line, cues without identifiers (`SubtitleFileParser.vtt`).
    static func vtt(_ bytes: [UInt8], _ what: String) throws -> [ParsedCue] {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw HarnessError("\(what): not UTF-8") }
        let blocks = text.components(separatedBy: "\n\n").dropFirst().filter { !$0.isEmpty }
        guard blocks.allSatisfy({ $0.split(separator: "\n").first?.contains(" --> ") == true }) else {
            throw HarnessError("\(what): a cue with an identifier, or a block that is no cue")
        }
        return try SubtitleFileParser.vtt(text)
    }
}
