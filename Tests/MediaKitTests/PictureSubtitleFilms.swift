import Foundation
@testable import MediaKit
import TestSupport

/// The films of `bench/picture_subs.py`, made the first time a test asks (in
/// `.build/test-media/picture-subs`, kept while its recipe holds): picture subtitle tracks (PGS at
/// Blu-ray size, VobSub at NTSC size with four colours) of known text in English, German and
/// French, and `truth.json` with every event's times, lines, italics and forced flag.
enum PictureSubtitleFilms {
    struct Truth: Decodable {
        var films: [Film]
    }

    struct Film: Decodable {
        var file: String
        var tracks: [Track]
    }

    struct Track: Decodable {
        var index: Int
        var variant: String
        var codec: String
        var language: String
        var events: [Event]
    }

    struct Event: Decodable {
        var start_ms: Int
        var end_ms: Int
        var lines: [String]
        var italic: [Bool]
        var forced: Bool
    }

    /// What `bench/subtitle_score.py` says of a text file read from a track.
    struct Score: Decodable {
        var cer: Double
        var events_expected: Int
        var events_found: Int
        var lost: Int
        var doubled: Int
        var extra: Int
        var time_mismatches: Mismatches
        var italic: Italics

        struct Mismatches: Decodable {
            var count: Int
        }

        struct Italics: Decodable {
            var true_positive: Int
            var false_positive: Int
            var false_negative: Int
        }
    }

    static let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/picture-subs")
    private static let made = Result { try make() }

    static func truth() throws -> Truth { try made.get() }

    static func path(_ file: String) -> String { folder.appendingPathComponent(file).path }

    /// Scores `srt`, read from `track` of `film`, against the truth (the forced events alone
    /// where `forced`).
    static func score(film: Film, track: Track, srt: String, forced: Bool = false) throws -> Score {
        let script = TestMedia.packageRoot.appendingPathComponent("bench/subtitle_score.py").path
        let result = try Command.run([Command.pythonPath, script, folder.appendingPathComponent("truth.json").path, film.file,
                                      String(track.index), srt] + (forced ? ["--forced"] : []), timeout: 120)
        guard result.succeeded else { throw FFmpegFrames.Failed(description: "bench/subtitle_score.py: \(result)") }
        return try JSONDecoder().decode(Score.self, from: Data(result.stdout.utf8))
    }

    private static func make() throws -> Truth {
        let script = TestMedia.packageRoot.appendingPathComponent("bench/picture_subs.py").path
        let result = try Command.run([Command.pythonPath, script, folder.path], timeout: 300)
        guard result.succeeded else { throw FFmpegFrames.Failed(description: "bench/picture_subs.py: \(result)") }
        return try JSONDecoder().decode(Truth.self, from: Data(contentsOf: folder.appendingPathComponent("truth.json")))
    }
}
