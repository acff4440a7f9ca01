import Foundation

/// Films with picture subtitle tracks of known text (`bench/picture_subs.py`): PGS and DVD
/// (VobSub) tracks drawn from text with real fonts, and `truth.json` saying what each picture says
/// and when. Made the first time a test asks, in `.build/test-media/picture-subs` (the script keeps
/// what it made with the same recipe).
public enum PictureSubsMedia {
    /// One event of a track: its times (what a reader of the container gets) and its lines.
    public struct Event: Decodable, Sendable {
        public var startMs: Int
        public var endMs: Int
        public var lines: [String]
        public var forced: Bool
    }

    /// One picture subtitle track: its stream index, codec (`hdmv_pgs_subtitle`, `dvd_subtitle`),
    /// stored language and events.
    public struct Track: Decodable, Sendable {
        public var index: Int
        public var variant: String
        public var codec: String
        public var language: String
        public var events: [Event]
    }

    public struct Film: Decodable, Sendable {
        public var file: String
        public var tracks: [Track]
    }

    private struct Truth: Decodable {
        var films: [Film]
    }

    private static let made = Result { () throws -> (URL, [Film]) in
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/picture-subs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = TestMedia.packageRoot.appendingPathComponent("bench/picture_subs.py").path
        let run = try Command.run(["python3", script, folder.path], timeout: 600)
        guard run.succeeded else { throw TestMediaError(message: "bench/picture_subs.py failed: \(run)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let truth = try decoder.decode(Truth.self, from: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        return (folder, truth.films)
    }

    /// The film `name` (`english.mkv`, `deutsch.mkv`, `francais.mkv`, `no-data.mkv`: a Japanese
    /// track, a language without data) and what its tracks say.
    /// - Throws: `TestMediaError` when the script fails (it needs python3 with PIL, ffmpeg, mkvmerge).
    public static func film(_ name: String) throws -> (url: URL, film: Film) {
        let (folder, films) = try made.get()
        guard let film = films.first(where: { $0.file == name }) else { throw TestMediaError(message: "no film \(name) in truth.json") }
        return (folder.appendingPathComponent(name), film)
    }
}

/// A SubRip document as its cues: each one's number, times in milliseconds and text lines.
public struct SubRipCues: Sendable {
    public struct Cue: Sendable, Equatable {
        public var number: Int
        public var startMs: Int
        public var endMs: Int
        public var lines: [String]
    }

    public var cues: [Cue]

    /// Parses `bytes` strictly: UTF-8, cues numbered from 1 in order, `HH:MM:SS,mmm --> HH:MM:SS,mmm`
    /// times with the end after the start, at least one text line each, a blank line after each.
    /// - Throws: `HarnessError` saying where it is not valid SubRip.
    public init(_ bytes: [UInt8]) throws {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw HarnessError("not UTF-8") }
        let blocks = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
            .filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        cues = []
        for (offset, block) in blocks.enumerated() {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
            guard lines.count >= 3, let number = Int(lines[0]), number == offset + 1 else {
                throw HarnessError("cue \(offset + 1) is not numbered so: \(block)")
            }
            let times = lines[1].components(separatedBy: " --> ")
            guard times.count == 2, let start = Self.milliseconds(times[0]), let end = Self.milliseconds(times[1]), end > start else {
                throw HarnessError("cue \(number) has no valid times: \(lines[1])")
            }
            cues.append(Cue(number: number, startMs: start, endMs: end, lines: Array(lines[2...])))
        }
    }

    /// `01:02:03,456` in milliseconds.
    static func milliseconds(_ time: String) -> Int? {
        guard let match = time.wholeMatch(of: /(\d{2}):(\d{2}):(\d{2}),(\d{3})/),
              let h = Int(match.1), let m = Int(match.2), let s = Int(match.3), let ms = Int(match.4), m < 60, s < 60 else { return nil }
        return ((h * 60 + m) * 60 + s) * 1000 + ms
    }
}
