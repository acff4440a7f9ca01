import Foundation
import Testing

/// What Kodi does with an edit decision list beside the file it plays, seen from outside: the
/// playback time, sampled about ten times a second through JSON-RPC (`KodiPlayer`), from the start
/// of the file until past the end of the break. A commercial break (action 3) is skipped once,
/// when playback reaches its start: Kodi seeks to its end. The file can be anywhere Kodi reads
/// local files, a mount among them (Kodi looks for `NAME.edl` beside `NAME.EXT` by stat and opens
/// it; it needs no listing of the folder).
///
/// The tolerances are Kodi's: the time may pass a break's start by a little before the seek, may
/// land a little before its end (the audio ahead of the video), and jumps ahead by about a second
/// now and then with the null audio device (`KodiPlayer`).
public enum KodiSkips {
    /// The time may pass a break's start by this much before Kodi's seek is seen.
    public static let pastStart = 2.0
    /// Kodi may land this much before a break's end.
    public static let beforeEnd = 1.0
    /// The longest step between two samples of playback going on (Kodi's jumps of a second, and
    /// a slow answer on a loaded machine).
    public static let longestStep = 4.0

    /// Plays `file` in a new Kodi (its HOME and logs in a folder of the test's own) until its time
    /// is `until` or `timeout` seconds have passed, and returns the samples and what Kodi logged
    /// about edit decision lists (the log's end too when there are few samples).
    public static func watch(_ file: String, until end: Double, timeout: Double) throws -> (samples: [KodiPlayer.Sample], log: String) {
        let folder = try TempFolder("kodi")
        defer { folder.remove() }
        let kodi = try KodiPlayer(folder: folder.path)
        defer { kodi.quit() }
        try kodi.play(file)
        let samples = try kodi.samples(until: end, timeout: timeout)
        var log = "Kodi's log on edit decision lists:\n" + kodi.editListLog.joined(separator: "\n")
        if samples.count < 10 { log += "\nthe end of Kodi's log:\n" + kodi.logTail() }
        return (samples, log)
    }

    /// Why `samples` do not show a skip of the break `start`–`end`, or nil when they do: playback
    /// ran before `start` and went on to at least `end + 1`, reached `start` and then was past
    /// `end` without a sample in between, and never went back into the break.
    public static func whyNoSkip(_ samples: [KodiPlayer.Sample], from start: Double, to end: Double) -> String? {
        let times = samples.map(\.time)
        guard times.contains(where: { $0 < start - 1 }) else { return "no sample before the break's start" }
        guard let landed = times.firstIndex(where: { $0 >= end - beforeEnd }) else { return "never past the break's end" }
        let middle = times.filter { $0 > start + pastStart && $0 < end - beforeEnd }
        guard middle.isEmpty else { return "it played the break: \(middle.count) samples in it" }
        guard landed > 0, times[landed - 1] >= start - longestStep else {
            return "it jumped past the break before reaching its start (from \(landed > 0 ? times[landed - 1] : 0))"
        }
        guard !times[landed...].contains(where: { $0 < end - beforeEnd }) else { return "it went back into the break" }
        guard times.last! >= end + 1 else { return "playback did not go on after the break" }
        return nil
    }

    /// Why `samples` do not show playback going through `start`–`end` without a jump, or nil
    /// when they do: from before `start` to at least `end`, each step forward and short.
    public static func whyNotPlayedThrough(_ samples: [KodiPlayer.Sample], from start: Double, to end: Double) -> String? {
        let times = samples.map(\.time)
        guard times.contains(where: { $0 < start - 1 }) else { return "no sample before \(start)" }
        guard times.last! >= end else { return "never reached \(end)" }
        for (before, after) in zip(times, times.dropFirst()) where after > start - longestStep && before < end {
            if after - before > longestStep || after < before - 0.5 { return "it jumped from \(before) to \(after)" }
        }
        return nil
    }

    /// Makes `path` (Matroska, as its extension says): an episode of `seconds` seconds, 320×180
    /// H.264 at 25 frames a second with a keyframe every second (so that Kodi's seek lands at the
    /// break's end), and AAC stereo sound, made with the ffmpeg command (about 2 s for a minute).
    /// - Throws: `HarnessError` when the ffmpeg command fails.
    public static func makeEpisode(_ path: String, seconds: Int = 60) throws {
        let made = try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25", "-keyint_min", "25",
            "-c:a", "aac", "-b:a", "64k", "-ac", "2", path,
        ], timeout: 120)
        guard made.succeeded else { throw HarnessError("making \(path) failed: \(made)") }
    }

    /// The samples in a line, for a message: each the first of its playback time (Kodi's time
    /// moves every 0.2 s or so, and is sampled about twice as often).
    public static func describe(_ samples: [KodiPlayer.Sample]) -> String {
        let changes = samples.enumerated().filter { $0.offset == 0 || samples[$0.offset - 1].time != $0.element.time }
        return "\(samples.count) samples (seconds after Player.Open→playback time, repeats left out): "
            + changes.map(\.element.description).joined(separator: " ")
    }
}

/// Expects Kodi playing `file` to skip the commercial break `start`–`end` of its edit decision
/// list: from a new Kodi (`KodiPlayer`), the playback time goes from before `start` to past `end`
/// without passing through the break. Takes about `start` seconds and Kodi's start.
/// - Throws: `KodiPlayer.Failure` when Kodi does not start or play the file.
public func assertKodiSkips(file: String, from start: Double, to end: Double,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (samples, log) = try KodiSkips.watch(file, until: end + 2, timeout: start + 45)
    let why = KodiSkips.whyNoSkip(samples, from: start, to: end)
    #expect(why == nil, "Kodi did not skip \(start)–\(end) of \(file): \(why ?? ""); \(KodiSkips.describe(samples))\n\(log)",
            sourceLocation: sourceLocation)
}

/// Expects Kodi playing `file` to play through `start`–`end` (the control: no edit decision list,
/// or one Kodi must not act on): the time goes from before `start` to `end` without a jump. Takes
/// about `end` seconds and Kodi's start.
/// - Throws: `KodiPlayer.Failure` when Kodi does not start or play the file.
public func assertKodiPlaysThrough(file: String, from start: Double, to end: Double,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (samples, log) = try KodiSkips.watch(file, until: end, timeout: end + 45)
    let why = KodiSkips.whyNotPlayedThrough(samples, from: start, to: end)
    #expect(why == nil, "Kodi did not play \(start)–\(end) of \(file) through: \(why ?? ""); \(KodiSkips.describe(samples))\n\(log)",
            sourceLocation: sourceLocation)
}
