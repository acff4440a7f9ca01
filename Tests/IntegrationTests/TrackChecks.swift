import Foundation
import TestSupport

/// Python for checking track files read through the mount: strict SubRip and WebVTT parsers,
/// ffprobe as JSON, and the span of a stream's packets.
enum TrackChecks {
    static let library = #"""
    import json, re, subprocess

    def ffprobe(path, *args):
        done = subprocess.run(["ffprobe", "-v", "error", "-of", "json", *args, path],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"ffprobe {path}: {done.stderr}"
        return json.loads(done.stdout)

    def packet_span(path, selector):
        """(first start, last end, longest packet) of the stream's packets, in seconds."""
        packets = [p for p in ffprobe(path, "-select_streams", selector,
                                      "-show_entries", "packet=pts_time,duration_time")["packets"]
                   if p.get("pts_time", "N/A") != "N/A"]
        assert packets, f"{path} {selector}: no packets"
        durations = [float(p.get("duration_time", "0") or 0) for p in packets]
        starts = [float(p["pts_time"]) for p in packets]
        return min(starts), max(s + d for s, d in zip(starts, durations)), max(durations)

    SRT_TIME = re.compile(r"^(\d\d):(\d\d):(\d\d),(\d\d\d) --> (\d\d):(\d\d):(\d\d),(\d\d\d)$")
    # WebVTT may leave the hours out: the ffmpeg command's muxer writes them only from the first hour on.
    VTT_TIME = re.compile(r"^(?:(\d\d+):)?(\d\d):(\d\d)\.(\d\d\d) --> (?:(\d\d+):)?(\d\d):(\d\d)\.(\d\d\d)$")

    def _ms(h, m, s, f):
        assert int(m) < 60 and int(s) < 60
        return ((int(h or 0) * 60 + int(m)) * 60 + int(s)) * 1000 + int(f)

    def _cues(lines, timing, numbered, what, last_at_end=False):
        cues, i = [], 0
        while i < len(lines):
            if numbered:
                assert lines[i] == str(len(cues) + 1), f"{what} line {i + 1}: cue number {lines[i]!r}"
                i += 1
            match = timing.match(lines[i]) if i < len(lines) else None
            assert match, f"{what} line {i + 1}: timing {lines[i] if i < len(lines) else '<end>'!r}"
            start, end = _ms(*match.groups()[:4]), _ms(*match.groups()[4:])
            assert start <= end, f"{what} line {i + 1}: ends before it starts"
            assert not cues or cues[-1][0] <= start, f"{what} line {i + 1}: out of order"
            i += 1
            text = []
            while i < len(lines) and lines[i] != "":
                text.append(lines[i])
                i += 1
            assert text, f"{what}: cue {len(cues) + 1} has no text"
            assert i < len(lines) or last_at_end, f"{what}: cue {len(cues) + 1} is not ended by a blank line"
            i += 1
            cues.append((start, end, "\n".join(text)))
        return cues

    def parse_srt(data, what="srt"):
        """SubRip, strictly: UTF-8, \n line ends, numbered cues from 1, each ended by a blank line."""
        text = data.decode("utf-8")
        assert "\r" not in text and text.endswith("\n"), f"{what}: line ends"
        return _cues(text.split("\n")[:-1], SRT_TIME, True, what)

    def parse_vtt(data, what="vtt"):
        """WebVTT as mediafs (and the ffmpeg command) writes it: the header, a blank line, cues
        without identifiers, each but the last ended by a blank line."""
        text = data.decode("utf-8")
        assert "\r" not in text and text.endswith("\n"), f"{what}: line ends"
        lines = text.split("\n")[:-1]
        assert lines[:2] == ["WEBVTT", ""], f"{what}: header {lines[:2]!r}"
        return _cues(lines[2:], VTT_TIME, False, what, last_at_end=True)

    def read(path):
        with open(path, "rb") as f:
            return f.read()
    """#

    /// Runs `script` with the library above defined.
    static func run(_ script: String, _ arguments: [String], timeout: Double = 120) throws -> CommandResult {
        try Command.python(library + "\n" + script, arguments, timeout: timeout)
    }

    /// `user.mediafs.stats` of a mount's root, as numbers by name.
    static func statistics(_ point: String) throws -> [String: Int] {
        let value = try Command.run(["getfattr", "-n", "user.mediafs.stats", "--only-values", point])
        return (try? JSONSerialization.jsonObject(with: Data(value.stdout.utf8)) as? [String: Int]) ?? [:]
    }

    /// Adds to a copy of the library: a video without audio or subtitles, a file with two video
    /// streams (angles), and the first 5% of the MKV (cut before its first subtitle).
    static func addTestFiles(_ source: String) throws {
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
}
