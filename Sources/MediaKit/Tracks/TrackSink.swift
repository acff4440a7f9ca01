import CAV

/// Where the packets of one source stream go during the pass, to make one or more jobs' files.
///
/// A sink owns its outputs: it writes them under temporary names, and `finish` completes and
/// renames them. A sink that throws, or that is dropped unfinished, leaves no file behind.
protocol TrackSink: AnyObject {
    /// The jobs it does, in the order `finish` returns their files.
    var jobs: [TrackJob] { get }
    /// Packets of its stream taken so far, whether or not they were written.
    var packetsSeen: Int { get }
    /// Takes one packet of its stream, as the demuxer read it. It must not keep the packet, and
    /// must leave its fields as it found them (the stream's other sinks get it next).
    /// - Throws: `MediaError` when an output cannot be written; the sink's jobs then fail.
    func consume(_ packet: UnsafeMutablePointer<AVPacket>) throws
    /// Completes the files and renames them to their final names.
    /// - Throws: `MediaError` when a file cannot be completed.
    func finish(_ end: PassEnd) throws -> [ExtractedTrack]
    /// Completes the files, each job with its own outcome, in the order of `jobs`: for a sink
    /// whose jobs may fail apart (the forced events read from pictures, where there are none).
    /// `finish`'s outcome for every job unless the sink says otherwise.
    /// - Throws: `MediaError` when no file can be completed.
    func finishEach(_ end: PassEnd) throws -> [Result<ExtractedTrack, MediaError>]
}

extension TrackSink {
    func finishEach(_ end: PassEnd) throws -> [Result<ExtractedTrack, MediaError>] {
        try finish(end).map { .success($0) }
    }
}

/// How the pass over the source ended, for the sinks to complete their files.
struct PassEnd {
    /// Why reading stopped early (truncated or damaged source), nil when it reached the end.
    var cutShort: String?
}
