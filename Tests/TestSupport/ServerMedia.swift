import Foundation

/// A small film with every kind of subtitle track the server layout names (issue 27): three
/// English (plain and default, forced, SDH), two German with titles, a styled French ASS, a
/// Spanish PGS and an Italian DVD (VobSub) track, beside a 24-second H.264 video (a keyframe
/// every 2 s) and an AAC track. Made with the ffmpeg command the first time a test asks for it,
/// in `.build/test-media/server`, and kept until `recipe` changes.
///
/// The ffmpeg command makes no bitmap subtitles from text, and encodes no PGS: the PGS track is
/// written here (`PGSWriter`), and the DVD one is the ffmpeg command's `dvdsub` encoding of it
/// (bitmap to bitmap), its durations from the next cue (`-fix_sub_duration`). One PGS cue is a
/// fine pattern, so its DVD packet spans several 2048-byte packs in a VobSub `.sub`.
public enum ServerMedia {
    /// One subtitle track of the film, in order (`0:s:N` is the N-th).
    public struct Subtitle: Sendable {
        public var language: String
        public var title: String?
        /// Dispositions set: `default`, `forced`, `hearing_impaired`.
        public var disposition: [String]
        /// libavcodec's name of the track's codec.
        public var codec: String
    }

    /// The film's subtitle tracks, in stream order.
    public static let subtitles: [Subtitle] = [
        Subtitle(language: "eng", title: nil, disposition: ["default"], codec: "subrip"),
        Subtitle(language: "eng", title: "English (Forced)", disposition: ["forced"], codec: "subrip"),
        Subtitle(language: "eng", title: "English SDH", disposition: ["hearing_impaired"], codec: "subrip"),
        Subtitle(language: "ger", title: "Kino", disposition: [], codec: "subrip"),
        Subtitle(language: "ger", title: "Kommentar", disposition: [], codec: "subrip"),
        Subtitle(language: "fre", title: "Français", disposition: [], codec: "ass"),
        Subtitle(language: "spa", title: nil, disposition: [], codec: "hdmv_pgs_subtitle"),
        Subtitle(language: "ita", title: nil, disposition: [], codec: "dvd_subtitle"),
    ]

    /// Seconds of the film.
    public static let duration = 24
    /// Changes whenever the recipe does, so that kept files are made again.
    static let recipe = "server-media 2"

    private static let made = Result { try make() }

    /// The folder holding the film and the inputs it was made from. Made once per test process.
    /// - Throws: `TestMediaError` when the ffmpeg command is missing or fails.
    public static func folder() throws -> URL { try made.get() }

    /// The film: `subtitled.mkv`.
    public static func film() throws -> URL { try folder().appendingPathComponent("subtitled.mkv") }

    private static func make() throws -> URL {
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/server")
        let stamp = folder.appendingPathComponent("recipe")
        let film = folder.appendingPathComponent("subtitled.mkv")
        if (try? String(contentsOf: stamp, encoding: .utf8)) == recipe, FileManager.default.fileExists(atPath: film.path) {
            return folder
        }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write("eng.srt", srt(["Hello there.", "A second line,\nbroken in two.", "<i>Italic</i> and <b>bold</b>."]))
        try write("eng-forced.srt", srt(["[Sign: EXIT]", "", "[Sign: Zimmer 12]"]))
        try write("eng-sdh.srt", srt(["[door creaks] Hello there.", "[wind howling]", "♪ humming ♪"]))
        try write("ger-kino.srt", srt(["Hallo.", "Eine zweite Zeile.", "Ende."]))
        try write("ger-kommentar.srt", srt(["Hier drehten wir zuerst.", "Das Licht war schwierig.", "Fertig."]))
        try write("fre.ass", ass)
        try Data(pgs.bytes()).write(to: folder.appendingPathComponent("spa.sup"))
        try ffmpeg(["-fix_sub_duration", "-i", "spa.sup", "-map", "0:s", "-c:s", "dvdsub", "ita-dvd.mkv"], in: folder)

        let inputs = ["eng.srt", "eng-forced.srt", "eng-sdh.srt", "ger-kino.srt", "ger-kommentar.srt", "fre.ass", "spa.sup",
                      "ita-dvd.mkv"]
        var arguments = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(duration)",
                         "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)"]
        for input in inputs { arguments += ["-i", input] }
        arguments += ["-map", "0:v", "-map", "1:a"]
        for number in inputs.indices { arguments += ["-map", "\(number + 2):s"] }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "50", "-keyint_min", "50",
                      "-sc_threshold", "0", "-c:a", "aac", "-b:a", "64k", "-c:s", "copy",
                      "-metadata:s:a:0", "language=eng", "-disposition:a:0", "default"]
        for (number, subtitle) in subtitles.enumerated() {
            arguments += ["-metadata:s:s:\(number)", "language=\(subtitle.language)",
                          "-disposition:s:\(number)", subtitle.disposition.isEmpty ? "0" : subtitle.disposition.joined(separator: "+")]
            if let title = subtitle.title { arguments += ["-metadata:s:s:\(number)", "title=\(title)"] }
        }
        try ffmpeg(arguments + ["subtitled.mkv"], in: folder)
        try recipe.write(to: stamp, atomically: true, encoding: .utf8)
        return folder
    }

    /// Three cues at 1–3 s, 9–11 s and 17–20 s, and one at 0–0.5 s so every input starts at 0
    /// (the ffmpeg command shifts each input by its own start). An empty text leaves its cue out.
    static func srt(_ texts: [String]) -> String {
        let times = [("00:00:01,000", "00:00:03,000"), ("00:00:09,000", "00:00:11,000"), ("00:00:17,000", "00:00:20,000")]
        var cues = [("00:00:00,000", "00:00:00,500", "…")]
        for (time, text) in zip(times, texts) where !text.isEmpty { cues.append((time.0, time.1, text)) }
        return cues.enumerated().map { "\($0.offset + 1)\n\($0.element.0) --> \($0.element.1)\n\($0.element.2)\n" }
            .joined(separator: "\n")
    }

    static let ass = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 320
        PlayResY: 180

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,DejaVu Sans,16,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1
        Style: Sign,DejaVu Sans,12,&H0000FFFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,1,0,8,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.00,0:00:00.50,Default,,0,0,0,,…
        Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,Bonjour.
        Dialogue: 0,0:00:09.00,0:00:11.00,Sign,,0,0,0,,{\\an8}SORTIE
        Dialogue: 0,0:00:17.00,0:00:20.00,Default,,0,0,0,,{\\i1}Fin{\\i0}, {\\b1}enfin{\\b0}.

        """

    /// Three pictures: a bar, a wider bar in another colour, and a fine two-colour pattern
    /// large enough that its DVD packet needs several packs.
    static let pgs = PGSWriter(cues: [
        .init(start: 1, end: 3, x: 600, y: 900, width: 400, height: 40) { _, _ in 1 },
        .init(start: 9, end: 11, x: 500, y: 880, width: 600, height: 60) { column, _ in column < 300 ? 2 : 3 },
        .init(start: 17, end: 20, x: 600, y: 820, width: 600, height: 80) { column, row in (column + row) % 2 == 0 ? 1 : 3 },
    ])

    private static func ffmpeg(_ arguments: [String], in folder: URL) throws {
        let result = try Command.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments,
                                     timeout: 120, directory: folder.path)
        guard result.succeeded else { throw TestMediaError(message: "making the server test media failed: \(result)") }
    }
}
