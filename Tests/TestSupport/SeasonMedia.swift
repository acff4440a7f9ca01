import Foundation
import Synchronization

/// A season whose episodes share an intro and credits at known times, and a folder of unrelated
/// films, made with the ffmpeg command the first time a test asks (in `.build/test-media/season`,
/// kept until `recipe` changes): tiny grey video (160×90, 5 fps) and a music-like sound
/// Chromaprint fingerprints (two voices of a note every quarter second, pitches drawn from a
/// seeded generator), AAC or Opus. Each episode's own stretches have their own seeds; the intro
/// and the credits are the same samples in every episode, after a cold open of its own length.
public enum SeasonMedia {
    public struct Episode: Sendable {
        public var name: String
        /// Seconds of the episode's own sound before the intro.
        public var coldOpen: Double
        /// Seconds of its own sound after the credits.
        public var tag: Double
        /// Seconds the audio starts after the video (the stream's start time).
        public var audioDelay: Double
        public var codec: String
        var seed: UInt64

        /// Where the intro and the credits are, in seconds on the video's clock.
        public var intro: ClosedRange<Double> { (coldOpen + audioDelay)...(coldOpen + audioDelay + SeasonMedia.introSeconds) }
        public var credits: ClosedRange<Double> {
            let end = SeasonMedia.seconds - tag + audioDelay
            return (end - SeasonMedia.creditsSeconds)...end
        }
    }

    /// Each episode's length (its video's): the first quarter, where the intro is looked for, is 90 s.
    public static let seconds = 360.0
    public static let introSeconds = 25.0
    public static let creditsSeconds = 30.0
    /// The sound's rate (the AAC episodes keep it; Opus is at 48,000).
    static let rate = 16_000

    public static let episodes: [Episode] = [
        Episode(name: "Show S01E01.mkv", coldOpen: 0, tag: 0, audioDelay: 0, codec: "aac", seed: 11),
        Episode(name: "Show S01E02.mkv", coldOpen: 37.3, tag: 12.4, audioDelay: 0.25, codec: "aac", seed: 12),
        Episode(name: "Show S01E03.mkv", coldOpen: 61.7, tag: 0, audioDelay: 0, codec: "libopus", seed: 13),
        Episode(name: "Show S01E04.mkv", coldOpen: 12.9, tag: 5, audioDelay: 0, codec: "aac", seed: 14),
    ]
    /// Films sharing nothing, in `unrelatedFolder()`.
    public static let unrelated = ["Film One.mkv", "Film Two.mkv", "Film Three.mkv"]
    static let recipe = "season-media 1"
    static let introSeed: UInt64 = 777, creditsSeed: UInt64 = 999

    private static let made = Result { try make() }

    /// The folder holding the season's episodes.
    public static func seasonFolder() throws -> URL { try made.get().appendingPathComponent("Show/Season 1") }
    /// The folder holding the unrelated films.
    public static func unrelatedFolder() throws -> URL { try made.get().appendingPathComponent("Films") }

    private static func make() throws -> URL {
        let root = TestMedia.packageRoot.appendingPathComponent(".build/test-media/season")
        let stamp = root.appendingPathComponent("recipe")
        if (try? String(contentsOf: stamp, encoding: .utf8)) == recipe { return root }
        try? FileManager.default.removeItem(at: root)
        let season = root.appendingPathComponent("Show/Season 1"), films = root.appendingPathComponent("Films")
        for folder in [season, films] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let jobs: [(URL, Episode)] = episodes.map { (season.appendingPathComponent($0.name), $0) }
            + unrelated.enumerated().map { i, name in
                (films.appendingPathComponent(name),
                 Episode(name: name, coldOpen: -1, tag: 0, audioDelay: 0, codec: "aac", seed: 100 + UInt64(i)))
            }
        let failures = Mutex<[String]>([])
        // Two at a time: the machine's other work goes on.
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for index in stride(from: lane, to: jobs.count, by: 2) {
                do { try makeFilm(at: jobs[index].0, jobs[index].1) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw TestMediaError(message: failure) }
        try recipe.write(to: stamp, atomically: true, encoding: .utf8)
        return root
    }

    /// One film: its sound as a WAV file, then the film muxed. A negative `coldOpen` makes a film
    /// of its own sound only.
    private static func makeFilm(at url: URL, _ episode: Episode) throws {
        let count = Int(seconds) * rate
        var samples = melody(seed: episode.seed * 10 + 2, count: count)
        if episode.coldOpen >= 0 {
            let open = Int((episode.coldOpen * Double(rate)).rounded())
            samples.replaceSubrange(0..<open, with: melody(seed: episode.seed * 10 + 1, count: open))
            let intro = Int(introSeconds) * rate
            samples.replaceSubrange(open..<open + intro, with: melody(seed: introSeed, count: intro))
            let end = count - Int((episode.tag * Double(rate)).rounded()), credits = Int(creditsSeconds) * rate
            samples.replaceSubrange(end - credits..<end, with: melody(seed: creditsSeed, count: credits))
        }
        let wav = url.deletingPathExtension().appendingPathExtension("wav")
        try wavFile(samples).write(to: wav)
        defer { try? FileManager.default.removeItem(at: wav) }
        let partial = url.deletingLastPathComponent().appendingPathComponent("partial-" + url.lastPathComponent).path
        let result = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y",
                                      "-f", "lavfi", "-i", "color=c=gray:s=160x90:r=5:d=\(Int(seconds))",
                                      "-itsoffset", String(episode.audioDelay), "-i", wav.path,
                                      "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", "50",
                                      "-c:a", episode.codec, "-b:a", "48k", "-f", "matroska", partial], timeout: 300)
        guard result.succeeded else { throw TestMediaError(message: "ffmpeg \(url.lastPathComponent): \(result)") }
        try FileManager.default.moveItem(atPath: partial, toPath: url.path)
    }

    /// `count` samples of two voices, a note each every quarter second, their pitches drawn from `seed`.
    static func melody(seed: UInt64, count: Int) -> [Float] {
        var generator = SeededGenerator(seed: seed)
        let noteLength = rate / 4
        var samples = [Float](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { out in
            var note = 0
            while note * noteLength < count {
                let low = 220 * pow(2, Double(generator.next() % 24) / 12)
                let high = 330 * pow(2, Double(generator.next() % 12) / 12)
                let step = 2 * Double.pi / Double(rate)
                for n in note * noteLength..<min(count, (note + 1) * noteLength) {
                    out[n] = Float(0.35 * sin(step * low * Double(n)) + 0.25 * sin(step * high * Double(n)))
                }
                note += 1
            }
        }
        return samples
    }

    /// `samples` as a mono 16-bit WAV file at `rate`.
    static func wavFile(_ samples: [Float]) -> Data {
        var data = Data()
        func le<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); le(UInt32(36 + samples.count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); le(UInt32(16)); le(UInt16(1)); le(UInt16(1))
        le(UInt32(rate)); le(UInt32(rate * 2)); le(UInt16(2)); le(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); le(UInt32(samples.count * 2))
        var pcm = [Int16](repeating: 0, count: samples.count)
        for i in samples.indices { pcm[i] = Int16(max(-1, min(1, samples[i])) * 20_000).littleEndian }
        pcm.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }
}
