import CAV
import SystemPackage

/// Reads what a media file holds, without decoding more than libavformat needs to.
public enum Prober {
    /// Probes the file at `path`.
    /// - Parameter timeout: seconds before the probe is interrupted.
    /// - Throws: `MediaError.notMedia` for a file that cannot be read as media, `.timedOut` past the
    ///   bound, `.io` or `.unreadable` where reading it fails.
    public static func probe(path: FilePath, size: Int64, timeout: Double = 20) throws -> MediaInfo {
        try probe(path: path, size: size, timeout: timeout, keepingIn: nil)
    }

    /// Probes the file at `path`; then keeps the opened file in `kept` for the work that may
    /// follow (a track pass, a first thumbnail), when the path named the same version before and
    /// after the probe. Nil `kept` closes it.
    static func probe(path: FilePath, size: Int64, timeout: Double, keepingIn kept: ProbedInputs?) throws -> MediaInfo {
        let version = kept == nil ? nil : FileIdentity(path: path)
        let file = try InputFile(path: path, timeout: timeout)
        let info = try describe(file, size: size)
        // A probe made through a read that failed may lack what the file holds: never kept.
        try file.checkReads()
        if let kept, let version, version.size == size, FileIdentity(path: path) == version {
            kept.keep(file, version: version)
        }
        return info
    }

    /// What `file` holds, from its header and stream information only (and, for a QuickTime file
    /// with a video stream of JPEG or PNG pictures, its `moov` read again through a descriptor of
    /// its own: `ChapterImageTracks`): nothing here reads packets or moves the file's position
    /// (`ProbedInputs` relies on it).
    /// - Throws: `MediaError.io`, `.unreadable` where reading the `moov` again fails.
    private static func describe(_ file: InputFile, size: Int64) throws -> MediaInfo {
        let ctx = file.context.pointee
        let container = MediaInfo.Container(
            format: ctx.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
            formatLongName: ctx.iformat.flatMap { $0.pointee.long_name.map { String(cString: $0) } },
            duration: seconds(ctx.duration, AV_TIME_BASE),
            startTime: seconds(ctx.start_time, AV_TIME_BASE),
            bitRate: ctx.bit_rate > 0 ? ctx.bit_rate : nil,
            size: size)
        var streams = file.streams.map(StreamDescriber.describe)
        try ChapterImageTracks.mark(&streams, of: file, size: size)
        return MediaInfo(
            container: container,
            streams: streams,
            chapters: file.chapters.map(describe(chapter:)),
            tags: Metadata.dictionary(ctx.metadata))
    }

    private static func describe(chapter: UnsafeMutablePointer<AVChapter>) -> MediaInfo.Chapter {
        let c = chapter.pointee
        let tags = Metadata.dictionary(c.metadata)
        return MediaInfo.Chapter(
            id: c.id,
            start: microseconds(Double(c.start) * av_q2d(c.time_base)),
            end: microseconds(Double(c.end) * av_q2d(c.time_base)),
            title: tags["title"],
            tags: tags)
    }

    /// `value` in units of 1/`base` second as seconds, or nil for AV_NOPTS_VALUE.
    static func seconds(_ value: Int64, _ base: Int32) -> Double? {
        value == cav_nopts_value() ? nil : microseconds(Double(value) / Double(base))
    }

    /// `seconds` rounded to the microsecond, so that 30.051 reads as 30.051 and not 30.051000000000002.
    static func microseconds(_ seconds: Double) -> Double {
        (seconds * 1_000_000).rounded() / 1_000_000
    }
}
