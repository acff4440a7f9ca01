import CAV

/// A stream of an open input as the track outputs see it: its parameters, and the shift that
/// makes its times relative to the start of the file.
///
/// It holds a strong reference to its `InputFile`, whose context owns the `AVStream`: as long as
/// a `SourceStream` (or a sink, decoder or encoder holding one) is alive, so is the stream, so its
/// parameters cannot outlive their context (rust-ffmpeg's child handles hold their owner the same
/// way). The pointers it gives are for use while it is held, never to be kept.
///
/// Times are shifted as the ffmpeg command shifts them: by the file's start time, so a track
/// starts where it starts in the file (an AC-3 track 16 ms after the video stays 16 ms after 0)
/// and the subtitles line up with the original as players show it.
struct SourceStream {
    /// The owner of the stream; kept alive by this value.
    let input: InputFile
    /// The stream's index in the container (`AVStream.index`).
    let index: Int
    let timeBase: AVRational
    /// The file's start time in this stream's time base, subtracted from every timestamp.
    let offset: Int64
    /// The stream's `title` tag, if any.
    let title: String?

    /// The stream at `index` of `input`; nil when the file has no such stream.
    init?(input: InputFile, index: Int) {
        guard index >= 0, index < Int(input.context.pointee.nb_streams),
              let stream = input.context.pointee.streams[index] else { return nil }
        self.input = input
        self.index = index
        self.timeBase = stream.pointee.time_base
        let fileStart = input.context.pointee.start_time
        self.offset = fileStart == cav_nopts_value() ? 0 : av_rescale_q(fileStart, cav_time_base_q(), stream.pointee.time_base)
        self.title = Metadata.dictionary(stream.pointee.metadata)["title"]
    }

    /// The `AVStream`, owned by `input`'s context: valid while this value is held.
    private var stream: UnsafeMutablePointer<AVStream> { input.context.pointee.streams[index]! }

    /// The stream's codec parameters, owned by `input`'s context: valid while this value is held.
    var codecParameters: UnsafeMutablePointer<AVCodecParameters> { stream.pointee.codecpar }

    /// The stream's `AV_DISPOSITION_*` flags.
    var disposition: Int32 { stream.pointee.disposition }
}
